import { and, eq, inArray, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb, type Executor } from "@/lib/db/client";
import { webhookDeliveries, webhookDeliveryAttempts, type WebhookDeliveryRow } from "@/lib/db/schema";
import { sendWebhook, type SendResult } from "./sender";
import { recordEndpointOutcome } from "./endpoint-health";
import { isGone, retryDelayMs } from "./receiver-signals";
import { previousSecretsOf } from "./rotation";
import { signPayload, standardSignatureHeader } from "./signature";

export interface NewDelivery {
  accountId: string;
  event: string;
  url: string;
  secret: string | null;
  payload: Record<string, unknown>;
  geofenceId?: string | null;
  webhookId?: string | null;
  trackableId?: string | null;
  test?: boolean;
  /** During a rotation's overlap: the target's previous secret (looked up from the geofence or endpoint when omitted). */
  previous?: { secret: string; expiresAt: Date } | null;
}

/** Inserts delivery rows (status pending); the caller starts their deliver-webhook workflows in the same transaction. */
export async function insertDeliveries(executor: Executor, rows: NewDelivery[]): Promise<WebhookDeliveryRow[]> {
  if (rows.length === 0) return [];
  const previous = await previousSecretsOf(executor, rows.filter((r) => r.previous === undefined && r.secret !== null));
  return executor
    .insert(webhookDeliveries)
    .values(
      rows.map((r) => ({
        ...previousColumns(r.previous === undefined ? previous(r) : r.previous, r.secret),
        accountId: r.accountId,
        event: r.event,
        url: r.url,
        secret: r.secret,
        payload: r.payload,
        geofenceId: r.geofenceId ?? null,
        webhookId: r.webhookId ?? null,
        trackableId: r.trackableId ?? null,
        test: r.test ?? false,
      })),
    )
    .returning();
}

function previousColumns(previous: { secret: string; expiresAt: Date } | null, secret: string | null) {
  const useful = previous && secret !== null && previous.secret !== secret;
  return { previousSecret: useful ? previous.secret : null, previousSecretExpiresAt: useful ? previous.expiresAt : null };
}

export function userAgent(): string {
  return `Fenceline-Webhooks/1.0 (+${env().APP_URL})`;
}

/**
 * The request of an attempt: the same body on every retry, and the same ids (the delivery id is the idempotency key,
 * as X-Service-Delivery and webhook-id). webhook-timestamp is this attempt's time, so its signature is made per attempt:
 * by the secret and, during a rotation's overlap, by the previous secret too.
 */
export function deliveryRequest(
  delivery: Pick<WebhookDeliveryRow, "id" | "event" | "payload" | "secret" | "previousSecret" | "previousSecretExpiresAt">,
  now = new Date(),
) {
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": userAgent(),
    "X-Service-Event": delivery.event,
    "X-Service-Delivery": delivery.id,
    "webhook-id": delivery.id,
    "webhook-timestamp": String(timestamp),
  };
  if (delivery.secret) {
    headers["X-Service-Signature"] = signPayload(body, delivery.secret);
    const overlap = delivery.previousSecret && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now;
    const secrets = overlap ? [delivery.secret, delivery.previousSecret!] : [delivery.secret];
    headers["webhook-signature"] = standardSignatureHeader(delivery.id, timestamp, body, secrets);
  }
  return { body, headers };
}

export type AttemptOutcome = "succeeded" | "retry" | "failed" | "gone";
/** What the workflow needs of an attempt: its outcome and, for "retry", how long to wait (the receiver may ask for longer). */
export type AttemptResult = { outcome: AttemptOutcome; retryInMs: number | null };

/**
 * Attempt `number` of a delivery, sent at most once: the attempt row is claimed (inserted) before the request goes
 * out, so a workflow replayed after a crash finds it and does not send that number again. `final` is the last
 * attempt of the schedule: a failure then marks the delivery failed.
 */
export async function attemptDelivery(deliveryId: string, number: number, opts: { final: boolean }): Promise<AttemptResult> {
  const db = await getDb();
  const config = env();
  const scheduledMs = config.WEBHOOK_RETRY_DELAYS[number - 1] ?? 0;
  const failedOutcome = (): AttemptOutcome => (opts.final ? "failed" : "retry");
  const retryAt = (delayMs = scheduledMs) => (opts.final ? null : new Date(Date.now() + delayMs));

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
    if (!current) return { outcome: "gone", retryInMs: null };
    if (current.status !== "pending") return { outcome: current.status, retryInMs: null };
    // This attempt was claimed by an earlier run of the workflow that did not finish it (the process died).
    const [previous] = await db
      .select()
      .from(webhookDeliveryAttempts)
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.number, number)));
    if (previous?.completedAt) {
      const ok = previous.statusCode !== null && previous.statusCode >= 200 && previous.statusCode < 300;
      return withWait(await finishDelivery(deliveryId, number, ok ? "succeeded" : failedOutcome(), ok ? null : retryAt()), scheduledMs);
    }
    await db
      .update(webhookDeliveryAttempts)
      .set({ completedAt: new Date(), error: "Interrupted: the app stopped during this attempt; it is not sent again" })
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.number, number)));
    return withWait(await finishDelivery(deliveryId, number, failedOutcome(), retryAt()), scheduledMs);
  }

  const { body, headers } = deliveryRequest(delivery);
  const result = await sendWebhook({
    url: delivery.url,
    body,
    headers,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
  });
  if (result.ok) return withWait(await finishDelivery(deliveryId, number, "succeeded", null, result), null);
  // 410 Gone ends the delivery at once; a 429 or 503 with Retry-After waits at least that long (at most an hour).
  if (isGone(result.statusCode)) return withWait(await finishDelivery(deliveryId, number, "failed", null, result), null);
  const waitMs = retryDelayMs(scheduledMs, result.statusCode, result.retryAfter);
  return withWait(await finishDelivery(deliveryId, number, failedOutcome(), retryAt(waitMs), result), waitMs);
}

const withWait = (outcome: AttemptOutcome, waitMs: number | null): AttemptResult => ({ outcome, retryInMs: outcome === "retry" ? waitMs : null });

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
  const ended = { webhookId: webhookDeliveries.webhookId, test: webhookDeliveries.test };
  if (!r) {
    const [d] = await db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, deliveryId)).returning(ended);
    if (d?.webhookId && !d.test && status !== "pending") await recordEndpointOutcome(d.webhookId, status === "succeeded" ? "succeeded" : "failed");
    return outcome;
  }
  const recorded = db.$with("recorded").as(
    db
      .update(webhookDeliveryAttempts)
      .set({ completedAt: new Date(), statusCode: r.statusCode, responseBody: r.responseBody, error: r.error, durationMs: r.durationMs })
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.number, number)))
      .returning({ number: webhookDeliveryAttempts.number }),
  );
  const [d] = await db.with(recorded).update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, deliveryId)).returning(ended);
  if (d?.webhookId && !d.test && status !== "pending") {
    await recordEndpointOutcome(d.webhookId, status === "succeeded" ? "succeeded" : isGone(r.statusCode) ? "gone" : "failed");
  }
  return outcome;
}
