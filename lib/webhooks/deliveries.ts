import { and, eq, inArray, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb, type Executor } from "@/lib/db/client";
import { webhookDeliveries, webhookDeliveryAttempts, type WebhookDeliveryRow } from "@/lib/db/schema";
import { sendWebhook, type SendResult } from "./sender";
import { signPayload } from "./signature";

export interface NewDelivery {
  accountId: string;
  event: string;
  url: string;
  secret: string | null;
  payload: Record<string, unknown>;
  geofenceId?: string | null;
  webhookId?: string | null;
  trackableId?: string | null;
  eventId?: string | null;
  test?: boolean;
}

/** Inserts delivery rows (status pending); the caller starts their deliver-webhook workflows in the same transaction. */
export async function insertDeliveries(executor: Executor, rows: NewDelivery[]): Promise<WebhookDeliveryRow[]> {
  if (rows.length === 0) return [];
  return executor
    .insert(webhookDeliveries)
    .values(
      rows.map((r) => ({
        accountId: r.accountId,
        event: r.event,
        url: r.url,
        secret: r.secret,
        payload: r.payload,
        geofenceId: r.geofenceId ?? null,
        webhookId: r.webhookId ?? null,
        trackableId: r.trackableId ?? null,
        eventId: r.eventId ?? null,
        test: r.test ?? false,
      })),
    )
    .returning();
}

export function userAgent(): string {
  return `Fenceline-Webhooks/1.0 (+${env().APP_URL})`;
}

/** The exact request of an attempt: the same bytes and headers on every retry (the delivery id is the idempotency key). */
export function deliveryRequest(delivery: Pick<WebhookDeliveryRow, "id" | "event" | "payload" | "secret">) {
  const body = JSON.stringify(delivery.payload);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": userAgent(),
    "X-Service-Event": delivery.event,
    "X-Service-Delivery": delivery.id,
  };
  if (delivery.secret) headers["X-Service-Signature"] = signPayload(body, delivery.secret);
  return { body, headers };
}

export type AttemptOutcome = "succeeded" | "retry" | "failed" | "gone";

/**
 * Attempt `number` of a delivery, sent at most once: the attempt row is claimed (inserted) before the request goes
 * out, so a workflow replayed after a crash finds it and does not send that number again. `final` is the last
 * attempt of the schedule: a failure then marks the delivery failed.
 */
export async function attemptDelivery(deliveryId: string, number: number, opts: { final: boolean }): Promise<AttemptOutcome> {
  const db = await getDb();
  const config = env();
  const failedOutcome = (): AttemptOutcome => (opts.final ? "failed" : "retry");
  const retryAt = () => (opts.final ? null : new Date(Date.now() + (config.WEBHOOK_RETRY_DELAYS[number - 1] ?? 0)));

  // One statement claims the attempt of a pending delivery (the insert) and, when it did, shows it on the delivery
  // and returns it (the update). Nothing returned: gone, no longer pending, or claimed before (sorted out below).
  const now = new Date();
  const claim = db.$with("claim").as(
    db
      .insert(webhookDeliveryAttempts)
      .select(
        db
          .select({
            // Every column, in the table's order (drizzle's rule for INSERT … SELECT); the result columns stay null.
            deliveryId: webhookDeliveries.id,
            number: sql<number>`${number}::int`.as("number"),
            attemptedAt: sql<Date>`${now.toISOString()}::timestamptz`.as("attempted_at"),
            completedAt: sql<Date | null>`null::timestamptz`.as("completed_at"),
            statusCode: sql<number | null>`null::int`.as("status_code"),
            responseBody: sql<string | null>`null::text`.as("response_body"),
            error: sql<string | null>`null::text`.as("error"),
            durationMs: sql<number | null>`null::int`.as("duration_ms"),
          })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending"))),
      )
      .onConflictDoNothing()
      .returning({ deliveryId: webhookDeliveryAttempts.deliveryId }),
  );
  const [delivery] = await db
    .with(claim)
    .update(webhookDeliveries)
    .set({ attemptCount: number, nextAttemptAt: null, updatedAt: now })
    .where(inArray(webhookDeliveries.id, db.select({ id: claim.deliveryId }).from(claim)))
    .returning();
  if (!delivery) {
    const [current] = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).limit(1);
    if (!current) return "gone";
    if (current.status !== "pending") return current.status;
    // This attempt was claimed by an earlier run of the workflow that did not finish it (the process died).
    const [previous] = await db
      .select()
      .from(webhookDeliveryAttempts)
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.number, number)));
    if (previous?.completedAt) {
      const ok = previous.statusCode !== null && previous.statusCode >= 200 && previous.statusCode < 300;
      return finishDelivery(deliveryId, number, ok ? "succeeded" : failedOutcome(), ok ? null : retryAt());
    }
    await db
      .update(webhookDeliveryAttempts)
      .set({ completedAt: new Date(), error: "Interrupted: the app stopped during this attempt; it is not sent again" })
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.number, number)));
    return finishDelivery(deliveryId, number, failedOutcome(), retryAt());
  }

  const { body, headers } = deliveryRequest(delivery);
  const result = await sendWebhook({
    url: delivery.url,
    body,
    headers,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
  });
  return finishDelivery(deliveryId, number, result.ok ? "succeeded" : failedOutcome(), result.ok ? null : retryAt(), result);
}

/** Sets the delivery's status after attempt `number` and, in the same statement, records the attempt's result. */
async function finishDelivery(
  deliveryId: string,
  number: number,
  outcome: AttemptOutcome,
  nextAttemptAt: Date | null,
  r?: SendResult,
): Promise<AttemptOutcome> {
  const db = await getDb();
  const status = outcome === "succeeded" ? "succeeded" : outcome === "failed" ? "failed" : "pending";
  const values = { status, attemptCount: number, nextAttemptAt: status === "pending" ? nextAttemptAt : null, updatedAt: new Date() } as const;
  if (!r) {
    await db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, deliveryId));
    return outcome;
  }
  const recorded = db.$with("recorded").as(
    db
      .update(webhookDeliveryAttempts)
      .set({ completedAt: new Date(), statusCode: r.statusCode, responseBody: r.responseBody, error: r.error, durationMs: r.durationMs })
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.number, number)))
      .returning({ number: webhookDeliveryAttempts.number }),
  );
  await db.with(recorded).update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, deliveryId));
  return outcome;
}
