import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { env } from "@/lib/config/env";
import { metrics } from "@/lib/metrics/registry";
import { audit } from "@/lib/audit/audit";
import { secretFieldsOf } from "@/lib/audit/changes";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { notificationChannels, type NotificationChannelRow } from "@/lib/db/schema";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { channelAdapter, channelDeps, type ChannelDeps, type ChannelType, type NotificationMessage } from "./channels";
import { bumpNotificationsVersion } from "./rule-cache";
import { forgetChannel } from "./rules";
import type { ChannelTestResult, CreateNotificationChannelInput, NotificationChannel, UpdateNotificationChannelInput } from "./schemas";

export function serializeChannel(row: NotificationChannelRow): NotificationChannel {
  const type = row.type as ChannelType;
  return {
    id: row.id,
    name: row.name,
    type,
    config: channelAdapter(type).view(row.config),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log compares of a channel: the API's view of its config, plus its secrets (shown redacted). */
function audited(row: NotificationChannelRow) {
  const channel = serializeChannel(row);
  return { ...channel, config: { ...channel.config, ...secretFieldsOf(row.config) } };
}

const scoped = (ctx: Ctx, id: string) => and(eq(notificationChannels.id, id), eq(notificationChannels.accountId, ctx.account.id));

/** A type the server cannot send (e-mail without SMTP_URL) is refused on save, saying why. */
function assertAvailable(type: ChannelType, deps: Pick<ChannelDeps, "mailer">) {
  const reason = channelAdapter(type).unavailable?.(deps);
  if (reason) throw new ApiError("invalid_request", reason);
}

export async function createChannel({ ctx, input, deps = channelDeps() }: { ctx: Ctx; input: CreateNotificationChannelInput; deps?: ChannelDeps }) {
  assertAvailable(input.type, deps);
  return withTransaction(ctx, async (tx) => {
    const [row] = await exec(tx)
      .insert(notificationChannels)
      .values({ accountId: ctx.account.id, name: input.name, type: input.type, config: input.config, enabled: input.enabled })
      .returning();
    await bumpNotificationsVersion(exec(tx), ctx.account.id);
    await audit(tx, { action: "notificationChannel.created", objectType: "notificationChannel", objectId: row!.id, after: audited(row!) });
    return serializeChannel(row!);
  });
}

const ChannelCursor = z.object({ id: z.uuid() });

export async function listChannels({ ctx, query }: { ctx: Ctx; query: { limit: number; cursor?: string } }) {
  const after = query.cursor ? decodeCursor(query.cursor, ChannelCursor) : null;
  const rows = await exec(ctx)
    .select()
    .from(notificationChannels)
    .where(and(eq(notificationChannels.accountId, ctx.account.id), after ? lt(notificationChannels.id, after.id) : undefined))
    .orderBy(desc(notificationChannels.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  return { data: page.map(serializeChannel), nextCursor };
}

async function findChannel(ctx: Ctx, id: string): Promise<NotificationChannelRow> {
  const [row] = await exec(ctx).select().from(notificationChannels).where(scoped(ctx, id)).limit(1);
  if (!row) throw notFound("Notification channel", id);
  return row;
}

export async function getChannel({ ctx, id }: { ctx: Ctx; id: string }): Promise<NotificationChannel> {
  return serializeChannel(await findChannel(ctx, id));
}

/** The stored config with the changes merged in (null removes a field), checked as the type's whole config. */
function mergeConfig(type: ChannelType, stored: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const merged = Object.fromEntries(Object.entries({ ...stored, ...changes }).filter(([, v]) => v !== null));
  const parsed = channelAdapter(type).config.safeParse(merged);
  if (!parsed.success) {
    throw validationError(new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: ["config", ...i.path] }))), "body");
  }
  return parsed.data;
}

export async function updateChannel({
  ctx,
  id,
  input,
  deps = channelDeps(),
}: {
  ctx: Ctx;
  id: string;
  input: UpdateNotificationChannelInput;
  deps?: ChannelDeps;
}): Promise<NotificationChannel> {
  return withTransaction(ctx, async (tx) => {
    const current = await findChannel(tx, id);
    const type = current.type as ChannelType;
    assertAvailable(type, deps);
    const config = input.config ? mergeConfig(type, current.config, input.config) : undefined;
    const [row] = await exec(tx)
      .update(notificationChannels)
      .set({ name: input.name, enabled: input.enabled, config, updatedAt: new Date() })
      .where(scoped(ctx, id))
      .returning();
    if (!row) throw notFound("Notification channel", id);
    await bumpNotificationsVersion(exec(tx), ctx.account.id);
    await audit(tx, { action: "notificationChannel.updated", objectType: "notificationChannel", objectId: id, before: audited(current), after: audited(row) });
    return serializeChannel(row);
  });
}

export async function deleteChannel({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const rows = await exec(tx).delete(notificationChannels).where(scoped(ctx, id)).returning();
    if (rows.length === 0) throw notFound("Notification channel", id);
    await audit(tx, { action: "notificationChannel.deleted", objectType: "notificationChannel", objectId: id, before: audited(rows[0]!) });
    await forgetChannel(exec(tx), ctx.account.id, id);
    await bumpNotificationsVersion(exec(tx), ctx.account.id);
  });
}

/** The message POST …/{id}/test sends. */
export const testMessage = (name: string, appUrl = env().APP_URL): NotificationMessage => ({
  title: "Test notification from Fenceline",
  body: `The channel "${name}" works: notifications sent to it arrive here.`,
  link: `${appUrl.replace(/\/+$/, "")}/trackables`,
  tags: ["test"],
});

/** Sends the test message once, now (no retries), and says how it went. */
export async function testChannel({ ctx, id, deps = channelDeps() }: { ctx: Ctx; id: string; deps?: ChannelDeps }): Promise<ChannelTestResult> {
  const row = await findChannel(ctx, id);
  const outcome = await channelAdapter(row.type as ChannelType).send(testMessage(row.name), row.config, deps);
  metrics().notificationDeliveries.inc({ channel: row.type, status: outcome.delivered ? "delivered" : "failed" });
  return { delivered: outcome.delivered, statusCode: outcome.statusCode, error: outcome.error };
}
