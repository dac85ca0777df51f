import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { audit } from "@/lib/audit/audit";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import type { Executor } from "@/lib/db/client";
import { geofences, notificationChannels, notificationRules, trackables, type NotificationRuleRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { bumpNotificationsVersion } from "./rule-cache";
import type { CreateNotificationRuleInput, NotificationRule, UpdateNotificationRuleInput } from "./rule-schemas";

export function serializeRule(row: NotificationRuleRow): NotificationRule {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    eventTypes: row.eventTypes,
    trackableIds: row.trackableIds,
    geofenceIds: row.geofenceIds,
    channelIds: row.channelIds,
    schedule: row.schedule,
    cooldownSeconds: row.cooldownSeconds,
    maxEventAgeSeconds: row.maxEventAgeSeconds,
    template: row.template,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const scoped = (ctx: Ctx, id: string) => and(eq(notificationRules.id, id), eq(notificationRules.accountId, ctx.account.id));

/** Every listed trackable, geofence and channel must be the account's: 400 naming the field and the ids that are not. */
async function assertOwned(db: Executor, accountId: string, input: Partial<Pick<NotificationRule, "trackableIds" | "geofenceIds" | "channelIds">>) {
  const checks = [
    ["trackableIds", trackables, input.trackableIds],
    ["geofenceIds", geofences, input.geofenceIds],
    ["channelIds", notificationChannels, input.channelIds],
  ] as const;
  const problems: string[] = [];
  for (const [field, table, ids] of checks) {
    if (!ids || ids.length === 0) continue;
    const found = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.accountId, accountId), inArray(table.id, ids)));
    const known = new Set(found.map((r) => r.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) problems.push(`${field}: not found in this account: ${missing.join(", ")}`);
  }
  if (problems.length) throw new ApiError("invalid_request", `Invalid body: ${problems.join("; ")}`);
}

export async function createRule({ ctx, input }: { ctx: Ctx; input: CreateNotificationRuleInput }): Promise<NotificationRule> {
  return withTransaction(ctx, async (tx) => {
    const db = exec(tx);
    await assertOwned(db, ctx.account.id, input);
    const [row] = await db
      .insert(notificationRules)
      .values({ ...input, accountId: ctx.account.id })
      .returning();
    await bumpNotificationsVersion(db, ctx.account.id);
    await audit(tx, { action: "notificationRule.created", objectType: "notificationRule", objectId: row!.id, after: serializeRule(row!) });
    return serializeRule(row!);
  });
}

const RuleCursor = z.object({ id: z.uuid() });

export async function listRules({ ctx, query }: { ctx: Ctx; query: { limit: number; cursor?: string } }) {
  const after = query.cursor ? decodeCursor(query.cursor, RuleCursor) : null;
  const rows = await exec(ctx)
    .select()
    .from(notificationRules)
    .where(and(eq(notificationRules.accountId, ctx.account.id), after ? lt(notificationRules.id, after.id) : undefined))
    .orderBy(desc(notificationRules.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  return { data: page.map(serializeRule), nextCursor };
}

export async function getRule({ ctx, id }: { ctx: Ctx; id: string }): Promise<NotificationRule> {
  const [row] = await exec(ctx).select().from(notificationRules).where(scoped(ctx, id)).limit(1);
  if (!row) throw notFound("Notification rule", id);
  return serializeRule(row);
}

export async function updateRule({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateNotificationRuleInput }): Promise<NotificationRule> {
  return withTransaction(ctx, async (tx) => {
    const db = exec(tx);
    const before = await getRule({ ctx: tx, id });
    await assertOwned(db, ctx.account.id, input);
    const [row] = await db
      .update(notificationRules)
      .set({ ...input, updatedAt: new Date() })
      .where(scoped(ctx, id))
      .returning();
    if (!row) throw notFound("Notification rule", id);
    await bumpNotificationsVersion(db, ctx.account.id);
    await audit(tx, { action: "notificationRule.updated", objectType: "notificationRule", objectId: id, before, after: serializeRule(row) });
    return serializeRule(row);
  });
}

export async function deleteRule({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [row] = await exec(tx).delete(notificationRules).where(scoped(ctx, id)).returning();
    if (!row) throw notFound("Notification rule", id);
    await bumpNotificationsVersion(exec(tx), ctx.account.id);
    await audit(tx, { action: "notificationRule.deleted", objectType: "notificationRule", objectId: id, before: serializeRule(row) });
  });
}

/**
 * A deleted channel leaves the rules that listed it (a rule left without channels sends nothing until given one).
 * The caller bumps the notifications version in the same transaction.
 */
export async function forgetChannel(db: Executor, accountId: string, channelId: string): Promise<void> {
  await db
    .update(notificationRules)
    .set({ channelIds: sql`array_remove(${notificationRules.channelIds}, ${channelId}::uuid)` })
    .where(and(eq(notificationRules.accountId, accountId), sql`${channelId}::uuid = any(${notificationRules.channelIds})`));
}
