import { and, eq, isNull, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { metrics } from "@/lib/metrics/registry";
import { insertUnnested } from "@/lib/db/bulk";
import { getDb, type Executor } from "@/lib/db/client";
import { epochMs, queryRows } from "@/lib/db/rows";
import { newId } from "@/lib/db/ids";
import { webhookDeliveries, webhookDeliveryAttempts, type WebhookDeliveryRow } from "@/lib/db/schema";
import { publishNotice } from "@/lib/stream/bus";
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
  eventId?: string | null;
  test?: boolean;
  /** Made by insertDeliveries when omitted. */
  id?: string;
  /** During a rotation's overlap: the target's previous secret (looked up from the geofence or endpoint when omitted). */
  previous?: { secret: string; expiresAt: Date } | null;
}

/**
 * Inserts delivery rows (status pending) and returns their ids, in order; the caller starts their deliver-webhook
 * workflows in the same transaction. Ids are made here, so nothing is read back (no RETURNING of the payloads), and
 * the rows go in one statement as column arrays (insertUnnested; fanOut hands them over in bounded batches). During a
 * rotation's overlap each row keeps the target's previous secret, so attempts carry both signatures.
 */
export async function insertDeliveries(executor: Executor, rows: readonly NewDelivery[]): Promise<Array<{ id: string }>> {
  if (rows.length === 0) return [];
  // Looked up only for rows that do not carry it (no round trip otherwise: the insert is issued at once).
  const unknown = rows.filter((r) => r.previous === undefined && r.secret !== null);
  const previous = unknown.length > 0 ? await previousSecretsOf(executor, unknown) : () => null;
  const values = rows.map((r) => ({
    id: r.id ?? newId(),
    ...previousColumns(r.previous === undefined ? previous(r) : r.previous, r.secret),
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
  }));
  await insertUnnested(executor, webhookDeliveries, values);
  return values.map((v) => ({ id: v.id }));
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
  delivery: Pick<WebhookDeliveryRow, "id" | "event" | "secret" | "previousSecret" | "previousSecretExpiresAt"> & {
    /** The payload as stored: the JSON text made when the delivery was created. */
    payloadText: string;
  },
  now = new Date(),
) {
  const body = delivery.payloadText;
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

/** What the history says of an attempt cut short by a crash. */
export const INTERRUPTED_ERROR =
  "Interrupted: the service stopped during this attempt, so it may or may not have reached the receiver; it was sent again and does not count as a retry";

/**
 * One statement claims the next attempt number of a pending delivery (the insert; the primary key stops a second
 * claim of the same number) and, when it did, shows it on the delivery and returns what the request is made of (the
 * update). With `slot`, only while the delivery has fewer completed attempts than it and no attempt left open
 * (attemptDelivery's fast path). Fixed SQL, prepared once per connection: the query builder took longer to build this
 * statement than the database took to run it. The payload comes back as the text stored (json keeps it as sent), so
 * every attempt sends and signs the same bytes without parsing them.
 */
const claimSql = (slotted: boolean) => `with claim as (
    insert into webhook_delivery_attempts (delivery_id, number, attempted_at, interrupted)
    select d.id, (select coalesce(max(a.number), 0) + 1 from webhook_delivery_attempts a where a.delivery_id = d.id), $2::timestamptz, false
    from webhook_deliveries d
    where d.id = $1::uuid and d.status = 'pending'${
      slotted
        ? ` and d.attempt_count < $3::int4
      and not exists (select 1 from webhook_delivery_attempts a where a.delivery_id = d.id and a.completed_at is null)`
        : ""
    }
    on conflict do nothing
    returning delivery_id, number)
  update webhook_deliveries d set next_attempt_at = null, updated_at = $2::timestamptz
  from claim where d.id = claim.delivery_id
  returning d.id, d.event, d.url, d.secret, d.previous_secret as "previousSecret",
    ${epochMs("d.previous_secret_expires_at")} as "previousSecretExpiresAtMs", d.payload::text as "payloadText", claim.number`;
const CLAIM_SLOT = claimSql(true);
const CLAIM_NEXT = claimSql(false);

interface ClaimedAttempt {
  id: string;
  event: string;
  url: string;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAtMs: number | null;
  payloadText: string;
  number: number;
}

async function claimAttempt(db: Executor, deliveryId: string, now: Date, slot: number | null): Promise<ClaimedAttempt | undefined> {
  const params = [deliveryId, now.toISOString()];
  const [claimed] = await queryRows<ClaimedAttempt>(db, slot === null ? CLAIM_NEXT : CLAIM_SLOT, slot === null ? params : [...params, slot]);
  return claimed;
}

/**
 * Place `slot` of a delivery's retry schedule (1: the first send, then one per retry of WEBHOOK_RETRY_DELAYS):
 * makes the attempt and returns the outcome. `final` is the schedule's last place: a failure then marks the delivery
 * failed. Safe to call again for the same slot after a crash (the deliver-webhook workflow replays it):
 *
 * - a slot whose attempt completed is not sent again (its outcome is already on the delivery);
 * - an attempt claimed but never completed (the process died while it was in flight) is closed as interrupted and
 *   the request is sent again at once, in the same slot: it may never have left, and receivers de-duplicate on the
 *   delivery id. So crashes never use up the schedule, and a delivery ends `failed` only after `slot` attempts that
 *   were really answered (or timed out) without a 2xx.
 */
export async function attemptDelivery(deliveryId: string, slot: number, opts: { final: boolean }): Promise<AttemptResult> {
  const db = await getDb();
  const config = env();
  const scheduledMs = config.WEBHOOK_RETRY_DELAYS[slot - 1] ?? 0;

  // The common case in one statement: a pending delivery with fewer attempts than this slot and none left open is
  // claimed at once. Otherwise (gone, ended, an attempt completed or cut short by an earlier run) the checks below
  // say what to do first.
  let delivery = await claimAttempt(db, deliveryId, new Date(), slot);
  if (!delivery) {
    const [current] = await db
      .select({
        status: webhookDeliveries.status,
        attemptCount: webhookDeliveries.attemptCount,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        cutShort: sql<boolean>`exists (select 1 from ${webhookDeliveryAttempts} a where a.delivery_id = ${webhookDeliveries.id} and a.completed_at is null)`,
      })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, deliveryId))
      .limit(1);
    if (!current) return ended("gone");
    if (current.status !== "pending") return ended(current.status);
    // Completed by an earlier run that died before its step result was saved: that attempt failed (else not pending).
    // The wait is the one it recorded (a Retry-After longer than the schedule included), what is left of it.
    if (current.attemptCount >= slot) {
      if (opts.final) return ended("failed");
      return { outcome: "retry", retryInMs: current.nextAttemptAt ? Math.max(0, current.nextAttemptAt.getTime() - Date.now()) : scheduledMs };
    }

    const now = new Date();
    if (current.cutShort) {
      await db
        .update(webhookDeliveryAttempts)
        .set({ completedAt: now, interrupted: true, error: INTERRUPTED_ERROR })
        .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), isNull(webhookDeliveryAttempts.completedAt)));
    }
    delivery = await claimAttempt(db, deliveryId, now, null);
  }
  if (!delivery) {
    const [after] = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).limit(1);
    if (!after) return ended("gone");
    if (after.status !== "pending") return ended(after.status);
    // Another run of this workflow claimed the same number at the same instant (a lease taken over while it ran).
    throw new Error(`attempt of delivery ${deliveryId} claimed concurrently; retrying`);
  }

  const { body, headers } = deliveryRequest({
    ...delivery,
    previousSecretExpiresAt: delivery.previousSecretExpiresAtMs === null ? null : new Date(delivery.previousSecretExpiresAtMs),
  });
  const result = await sendWebhook({
    url: delivery.url,
    body,
    headers,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
  });
  // A 2xx succeeds; 410 Gone ends the delivery at once; a 429 or 503 with Retry-After waits at least that long (at
  // most an hour) before the next place of the schedule.
  let outcome: AttemptOutcome;
  let waitMs: number | null = null;
  if (result.ok) outcome = "succeeded";
  else if (isGone(result.statusCode) || opts.final) outcome = "failed";
  else {
    outcome = "retry";
    waitMs = retryDelayMs(scheduledMs, result.statusCode, result.retryAfter);
  }
  const nextAttemptAt = waitMs === null ? null : new Date(Date.now() + waitMs);
  metrics().webhookDeliveries.inc({ status: outcome });
  const changed = await recordAttempt(deliveryId, delivery.number, slot, outcome, nextAttemptAt, result);
  // The deliveries page shows each attempt and the status it leaves.
  if (changed) publishNotice(changed.accountId, "delivery");
  // An account endpoint's health counts deliveries that ended (not tests, not a status another run already set).
  if (changed?.webhookId && !changed.test && outcome !== "retry") {
    await recordEndpointOutcome(changed.webhookId, outcome === "succeeded" ? "succeeded" : isGone(result.statusCode) ? "gone" : "failed");
  }
  return { outcome, retryInMs: waitMs };
}

const ended = (outcome: AttemptOutcome): AttemptResult => ({ outcome, retryInMs: null });

/**
 * Records what attempt `number` got and, in the same statement, the delivery's status after schedule place `slot`;
 * returns the delivery's endpoint when its status was written. The answer is written even over an interrupted mark
 * (a run that lost its lease but got its answer knows more than the run that took over). A 2xx makes the delivery
 * succeeded whatever it was: the receiver accepted it, so the history must not say failed. A failure only moves a
 * delivery that is still pending.
 */
async function recordAttempt(
  deliveryId: string,
  number: number,
  slot: number,
  outcome: AttemptOutcome,
  nextAttemptAt: Date | null,
  r: SendResult,
): Promise<{ webhookId: string | null; test: boolean; accountId: string } | undefined> {
  const db = await getDb();
  const succeeded = outcome === "succeeded";
  const [changed] = await queryRows<{ webhookId: string | null; test: boolean; accountId: string }>(db, RECORD_ATTEMPT, [
    deliveryId,
    number,
    new Date().toISOString(),
    r.statusCode,
    r.responseBody,
    r.error,
    r.durationMs,
    succeeded ? "succeeded" : outcome === "failed" ? "failed" : "pending",
    slot,
    nextAttemptAt?.toISOString() ?? null,
    succeeded ? ["pending", "failed"] : ["pending"],
  ]);
  return changed;
}

/** recordAttempt's one statement (fixed SQL, prepared once per connection, like the claim). */
const RECORD_ATTEMPT = `with recorded as (
    update webhook_delivery_attempts
    set completed_at = $3::timestamptz, status_code = $4::int4, response_body = $5::text, error = $6::text, duration_ms = $7::int4, interrupted = false
    where delivery_id = $1::uuid and number = $2::int4
    returning number)
  update webhook_deliveries
  set status = $8::text, attempt_count = greatest(attempt_count, $9::int4), next_attempt_at = $10::timestamptz, updated_at = $3::timestamptz
  where id = $1::uuid and status = any($11::text[])
  returning webhook_id as "webhookId", test, account_id as "accountId"`;
