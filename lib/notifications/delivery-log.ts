import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
import { notificationDeliveries, notificationDeliveryAttempts, type NotificationDeliveryRow } from "@/lib/db/schema";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import type { NotificationDelivery, NotificationDeliveryListQuery } from "./rule-schemas";

const DeliveryCursor = z.object({ id: z.uuid() });

/** GET /notification-deliveries: the account's log, newest first, filtered by rule, channel, event and status. */
export async function listNotificationDeliveries({ ctx, query }: { ctx: Ctx; query: NotificationDeliveryListQuery }) {
  const db = exec(ctx);
  const after = query.cursor ? decodeCursor(query.cursor, DeliveryCursor) : null;
  const d = notificationDeliveries;
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        eq(d.accountId, ctx.account.id),
        query.ruleId ? eq(d.ruleId, query.ruleId) : undefined,
        query.channelId ? eq(d.channelId, query.channelId) : undefined,
        query.eventId ? eq(d.eventId, query.eventId) : undefined,
        query.status ? eq(d.status, query.status) : undefined,
        after ? lt(d.id, after.id) : undefined,
      ),
    )
    .orderBy(desc(d.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  const attempts = page.length
    ? await db
        .select()
        .from(notificationDeliveryAttempts)
        .where(inArray(notificationDeliveryAttempts.deliveryId, page.map((r) => r.id)))
        .orderBy(asc(notificationDeliveryAttempts.number))
    : [];
  const byDelivery = new Map<string, typeof attempts>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return { data: page.map((r) => serializeNotificationDelivery(r, byDelivery.get(r.id) ?? [])), nextCursor };
}

export function serializeNotificationDelivery(
  row: NotificationDeliveryRow,
  attempts: ReadonlyArray<{ attemptedAt: Date; statusCode: number | null; error: string | null }>,
): NotificationDelivery {
  return {
    id: row.id,
    ruleId: row.ruleId,
    channelId: row.channelId,
    eventId: row.eventId,
    eventType: row.eventType,
    trackableId: row.trackableId,
    status: row.status,
    reason: row.reason,
    title: row.message.title,
    body: row.message.body,
    attempts: attempts.map((a) => ({ attemptedAt: a.attemptedAt.toISOString(), statusCode: a.statusCode, error: a.error })),
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
