import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
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

const scoped = (ctx: Ctx, id: string) => and(eq(webhooks.id, id), eq(webhooks.accountId, ctx.account.id));

export async function createWebhook({ ctx, input }: { ctx: Ctx; input: CreateWebhookInput }): Promise<Webhook> {
  const [row] = await exec(ctx)
    .insert(webhooks)
    .values({ accountId: ctx.account.id, url: input.url, events: input.events, secret: input.secret ?? null, description: input.description, enabled: input.enabled })
    .returning();
  return serializeWebhook(row!);
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
  const [row] = await exec(ctx)
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
  if (!row) throw notFound("Webhook", id);
  return serializeWebhook(row);
}

/** Deletes the endpoint; its delivery history is kept (webhookId becomes null) and pending retries still finish. */
export async function deleteWebhook({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  const rows = await exec(ctx).delete(webhooks).where(scoped(ctx, id)).returning({ id: webhooks.id });
  if (rows.length === 0) throw notFound("Webhook", id);
}
