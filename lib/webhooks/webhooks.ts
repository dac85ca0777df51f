import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { audit } from "@/lib/audit/audit";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { webhooks, type WebhookRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import type { CreateWebhookInput, UpdateWebhookInput, Webhook } from "./schemas";

export function serializeWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    secretSet: row.secret !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log compares of an endpoint: its settings, and its secret (shown redacted). */
const audited = (row: WebhookRow) => ({ ...serializeWebhook(row), secret: row.secret });

const scoped = (ctx: Ctx, id: string) => and(eq(webhooks.id, id), eq(webhooks.accountId, ctx.account.id));

export async function createWebhook({ ctx, input }: { ctx: Ctx; input: CreateWebhookInput }): Promise<Webhook> {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx
      .insert(webhooks)
      .values({ accountId: ctx.account.id, url: input.url, events: input.events, secret: input.secret ?? null, description: input.description, enabled: input.enabled })
      .returning();
    await audit(tx, { action: "webhook.created", objectType: "webhook", objectId: row!.id, after: audited(row!) });
    return serializeWebhook(row!);
  });
}

const WebhookCursor = z.object({ id: z.uuid() });

export async function listWebhooks({ ctx, query }: { ctx: Ctx; query: { limit: number; cursor?: string } }) {
  const after = query.cursor ? decodeCursor(query.cursor, WebhookCursor) : null;
  const rows = await exec(ctx)
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, ctx.account.id), after ? lt(webhooks.id, after.id) : undefined))
    .orderBy(desc(webhooks.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  return { data: page.map(serializeWebhook), nextCursor };
}

export async function getWebhook({ ctx, id }: { ctx: Ctx; id: string }): Promise<Webhook> {
  const [row] = await exec(ctx).select().from(webhooks).where(scoped(ctx, id)).limit(1);
  if (!row) throw notFound("Webhook", id);
  return serializeWebhook(row);
}

export async function updateWebhook({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateWebhookInput }): Promise<Webhook> {
  return withTransaction(ctx, async (tx) => {
    const [before] = await tx.tx.select().from(webhooks).where(scoped(ctx, id)).for("update");
    const [row] = await tx.tx
      .update(webhooks)
      .set({
        ...input,
        // A secret set by PATCH replaces the current one at once (rotate-secret is the way with an overlap).
        ...(input.secret !== undefined && { previousSecret: null, previousSecretExpiresAt: null }),
        // Switching an endpoint on clears why the service switched it off, and its run of failures.
        ...(input.enabled === true && { disabledAt: null, disabledReason: null, consecutiveFailures: 0 }),
        updatedAt: new Date(),
      })
      .where(scoped(ctx, id))
      .returning();
    if (!row || !before) throw notFound("Webhook", id);
    await audit(tx, { action: "webhook.updated", objectType: "webhook", objectId: id, before: audited(before), after: audited(row) });
    return serializeWebhook(row);
  });
}

/** Deletes the endpoint; its delivery history is kept (webhookId becomes null) and pending retries still finish. */
export async function deleteWebhook({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx.delete(webhooks).where(scoped(ctx, id)).returning();
    if (!row) throw notFound("Webhook", id);
    await audit(tx, { action: "webhook.deleted", objectType: "webhook", objectId: id, before: audited(row) });
  });
}
