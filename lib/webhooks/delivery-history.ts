import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
import { webhookDeliveries, webhookDeliveryAttempts, type WebhookDeliveryAttemptRow, type WebhookDeliveryRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { enqueue, wakeRunner } from "@/lib/jobs/client";
import { deliverWebhook } from "@/lib/jobs/workflows/deliver-webhook";
import { insertDeliveries } from "./deliveries";
import type { Delivery, DeliveryListQuery } from "./delivery-schemas";

export function serializeDelivery(row: WebhookDeliveryRow, attempts: WebhookDeliveryAttemptRow[]): Delivery {
  return {
    id: row.id,
    event: row.event,
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
    return row!;
  });
  wakeRunner();
  return serializeDelivery(created, []);
}
