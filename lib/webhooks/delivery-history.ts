import { and, asc, desc, eq, gte, inArray, lt } from "drizzle-orm";
import { z } from "zod";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { webhookDeliveries, webhookDeliveryAttempts, type WebhookDeliveryAttemptRow, type WebhookDeliveryRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { enqueue, enqueueMany } from "@/lib/jobs/client";
import { deliverWebhook } from "@/lib/jobs/workflows/deliver-webhook";
import { publishNotice } from "@/lib/stream/bus";
import { wakeDeliveries } from "./fan-out";
import { insertDeliveries, type NewDelivery } from "./deliveries";
import type { Delivery, DeliveryListQuery } from "./delivery-schemas";
import { kindOf, requireTarget, type TargetRef } from "./targets";

export function serializeDelivery(row: WebhookDeliveryRow, attempts: WebhookDeliveryAttemptRow[]): Delivery {
  return {
    id: row.id,
    event: row.event as Delivery["event"],
    status: row.status,
    test: row.test,
    geofenceId: row.geofenceId,
    webhookId: row.webhookId,
    trackableId: row.trackableId,
    eventId: row.eventId,
    url: row.url,
    payload: row.payload,
    attempts: attempts
      .filter((a) => a.deliveryId === row.id)
      .sort((a, b) => a.number - b.number)
      .map((a) => ({
        number: a.number,
        attemptedAt: a.attemptedAt.toISOString(),
        statusCode: a.statusCode,
        responseBody: a.responseBody,
        error: a.error ?? (a.completedAt ? null : "In progress"),
        durationMs: a.durationMs,
        interrupted: a.interrupted,
      })),
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function attemptsOf(ctx: Ctx, ids: string[]) {
  if (ids.length === 0) return [];
  return exec(ctx).select().from(webhookDeliveryAttempts).where(inArray(webhookDeliveryAttempts.deliveryId, ids)).orderBy(asc(webhookDeliveryAttempts.number));
}

const DeliveryCursor = z.object({ id: z.uuid() });

/** The account's deliveries, newest first, with their attempts. */
export async function listDeliveries({ ctx, query }: { ctx: Ctx; query: DeliveryListQuery }) {
  const after = query.cursor ? decodeCursor(query.cursor, DeliveryCursor) : null;
  const rows = await exec(ctx)
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.accountId, ctx.account.id),
        query.geofenceId ? eq(webhookDeliveries.geofenceId, query.geofenceId) : undefined,
        query.webhookId ? eq(webhookDeliveries.webhookId, query.webhookId) : undefined,
        query.trackableId ? eq(webhookDeliveries.trackableId, query.trackableId) : undefined,
        query.status ? eq(webhookDeliveries.status, query.status) : undefined,
        query.event ? eq(webhookDeliveries.event, query.event) : undefined,
        after ? lt(webhookDeliveries.id, after.id) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  const attempts = await attemptsOf(ctx, page.map((r) => r.id));
  return { data: page.map((r) => serializeDelivery(r, attempts)), nextCursor };
}

async function requireDelivery(ctx: Ctx, id: string): Promise<WebhookDeliveryRow> {
  const [row] = await exec(ctx)
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.accountId, ctx.account.id)))
    .limit(1);
  if (!row) throw notFound("Delivery", id);
  return row;
}

export async function getDelivery({ ctx, id }: { ctx: Ctx; id: string }): Promise<Delivery> {
  const row = await requireDelivery(ctx, id);
  return serializeDelivery(row, await attemptsOf(ctx, [row.id]));
}

/** Sends a delivery's payload again as a new delivery (new id, its own attempts and retries). */
export async function redeliver({ ctx, id }: { ctx: Ctx; id: string }): Promise<Delivery> {
  const original = await requireDelivery(ctx, id);
  const created = await ctx.db.transaction(async (tx) => {
    const [row] = await insertDeliveries(tx, [
      {
        accountId: ctx.account.id,
        event: original.event,
        url: original.url,
        secret: original.secret,
        payload: original.payload,
        geofenceId: original.geofenceId,
        webhookId: original.webhookId,
        trackableId: original.trackableId,
        eventId: original.eventId,
        test: original.test,
      },
    ]);
    await enqueue(deliverWebhook, { deliveryId: row!.id }, { executor: tx, eventId: `deliver-${row!.id}` });
    return requireDelivery({ ...ctx, tx }, row!.id);
  });
  wakeDeliveries();
  publishNotice(ctx.account.id, "delivery");
  return serializeDelivery(created, []);
}

const RECOVER_CHUNK = 1000;

/**
 * POST /webhooks/{id}/recover and /geofences/{id}/recover: every delivery to the target that ended `failed` and was
 * created at or after `since` (tests excluded) is sent again, oldest first, as a new delivery with the same payload,
 * to the target's current URL and secret. Returns how many.
 */
export async function recoverFailed({ ctx, target, since }: { ctx: Ctx; target: TargetRef; since: Date }) {
  // Sent to the target as it is configured now (its URL may have been fixed after the outage).
  const to = await requireTarget(exec(ctx), ctx.account.id, target);
  const url = to.url;
  // Only a geofence's own webhook can lack a URL (an endpoint's is required).
  if (!url) throw new ApiError("invalid_request", "This geofence has no webhookUrl to send the failed deliveries to");
  const { kind, id } = kindOf(target);
  const failed = await exec(ctx)
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.accountId, ctx.account.id),
        kind.deliveries(id),
        eq(webhookDeliveries.status, "failed"),
        eq(webhookDeliveries.test, false),
        gte(webhookDeliveries.createdAt, since),
      ),
    )
    .orderBy(asc(webhookDeliveries.id));
  if (failed.length === 0) return { redelivered: 0 };
  await withTransaction(ctx, async ({ tx }) => {
    for (let i = 0; i < failed.length; i += RECOVER_CHUNK) {
      const rows: NewDelivery[] = failed.slice(i, i + RECOVER_CHUNK).map((d) => ({
        accountId: ctx.account.id,
        event: d.event,
        url,
        secret: to.secret,
        payload: d.payload,
        geofenceId: d.geofenceId,
        webhookId: d.webhookId,
        trackableId: d.trackableId,
      }));
      const created = await insertDeliveries(tx, rows);
      await enqueueMany(
        deliverWebhook,
        created.map((d) => ({ payload: { deliveryId: d.id }, eventId: `deliver-${d.id}` })),
        { executor: tx },
      );
    }
  });
  wakeDeliveries();
  publishNotice(ctx.account.id, "delivery");
  return { redelivered: failed.length };
}
