import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { metrics } from "@/lib/metrics/registry";
import { notificationChannels, notificationDeliveries, notificationDeliveryAttempts, type StoredMessage } from "@/lib/db/schema";
import { retryDelayMs } from "@/lib/webhooks/receiver-signals";
import { channelAdapter, channelDeps, type ChannelType, type SendOutcome } from "./channels";

export type NotificationOutcome = "sent" | "retry" | "failed";
/** What the workflow needs of an attempt: its outcome and, for "retry", how long to wait. */
export type NotificationAttemptResult = { outcome: NotificationOutcome; retryInMs: number | null };

export const INTERRUPTED_ERROR = "Interrupted: the service stopped during this attempt; it was sent again and does not count as a retry";

/** 4xx answers other than 408 (time-out) and 429 (too many requests) say the request itself is wrong: no retry. */
export const isFinalStatus = (statusCode: number | null) => statusCode !== null && statusCode >= 400 && statusCode < 500 && statusCode !== 408 && statusCode !== 429;

type Claim = { ended: NotificationAttemptResult } | { number: number; channelId: string | null; message: StoredMessage };

/**
 * Claims attempt `slot` of the retry schedule of a pending delivery, under the delivery's row lock: a slot whose
 * attempt completed is not sent again; an attempt left open by a process that died is closed as interrupted and the
 * message sent again in the same slot (so a crash never uses up the schedule).
 */
async function claim(deliveryId: string, slot: number, final: boolean, scheduledMs: number): Promise<Claim> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [d] = await tx.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, deliveryId)).for("update").limit(1);
    if (!d || d.status !== "pending") return { ended: { outcome: d?.status === "sent" ? "sent" : "failed", retryInMs: null } };
    const now = new Date();
    // This slot's attempt completed in a run that died before the workflow kept its result: the wait is the one that
    // attempt recorded (a Retry-After longer than the schedule included), what is left of it, not the schedule's again.
    if (d.attemptCount >= slot) {
      if (final) return { ended: { outcome: "failed", retryInMs: null } };
      return { ended: { outcome: "retry", retryInMs: d.nextAttemptAt ? Math.max(0, d.nextAttemptAt.getTime() - now.getTime()) : scheduledMs } };
    }
    const attempts = await tx
      .select({ number: notificationDeliveryAttempts.number, completedAt: notificationDeliveryAttempts.completedAt })
      .from(notificationDeliveryAttempts)
      .where(eq(notificationDeliveryAttempts.deliveryId, deliveryId))
      .orderBy(asc(notificationDeliveryAttempts.number));
    const open = attempts.filter((a) => a.completedAt === null).map((a) => a.number);
    if (open.length) {
      await tx
        .update(notificationDeliveryAttempts)
        .set({ completedAt: now, error: INTERRUPTED_ERROR })
        .where(and(eq(notificationDeliveryAttempts.deliveryId, deliveryId), inArray(notificationDeliveryAttempts.number, open)));
    }
    const number = (attempts.at(-1)?.number ?? 0) + 1;
    await tx.insert(notificationDeliveryAttempts).values({ deliveryId, number, attemptedAt: now });
    await tx.update(notificationDeliveries).set({ nextAttemptAt: null, updatedAt: now }).where(eq(notificationDeliveries.id, deliveryId));
    return { number, channelId: d.channelId, message: d.message };
  });
}

/** Sends through the delivery's channel as it is now; a deleted or disabled channel is a final failure. */
async function send(channelId: string | null, message: StoredMessage): Promise<SendOutcome & { final?: boolean; channelType?: string }> {
  const db = await getDb();
  const [channel] = channelId ? await db.select().from(notificationChannels).where(eq(notificationChannels.id, channelId)).limit(1) : [];
  if (!channel) return { delivered: false, statusCode: null, error: "The channel was deleted", final: true };
  if (!channel.enabled) return { delivered: false, statusCode: null, error: "The channel is disabled", final: true, channelType: channel.type };
  try {
    return { ...(await channelAdapter(channel.type as ChannelType).send(message, channel.config, channelDeps())), channelType: channel.type };
  } catch (err) {
    return { delivered: false, statusCode: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Place `slot` of a notification delivery's retry schedule (1: the first send, then one per WEBHOOK_RETRY_DELAYS
 * entry): sends and records the attempt. A 2xx (every address accepted, for e-mail) is `sent`; a 4xx other than 408
 * and 429, or the schedule's last place, ends it `failed`; otherwise it waits the scheduled delay, or longer when a
 * 429/503 asked for it with Retry-After. Safe to replay after a crash (see claim).
 */
export async function attemptNotification(deliveryId: string, slot: number, opts: { final: boolean }): Promise<NotificationAttemptResult> {
  const scheduledMs = env().WEBHOOK_RETRY_DELAYS[slot - 1] ?? 0;
  const claimed = await claim(deliveryId, slot, opts.final, scheduledMs);
  if ("ended" in claimed) return claimed.ended;

  const r = await send(claimed.channelId, claimed.message);
  let outcome: NotificationOutcome;
  let waitMs: number | null = null;
  if (r.delivered) outcome = "sent";
  else if (r.final || isFinalStatus(r.statusCode) || opts.final) outcome = "failed";
  else {
    outcome = "retry";
    waitMs = retryDelayMs(scheduledMs, r.statusCode, r.retryAfter ?? null);
  }
  const now = new Date();
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(notificationDeliveryAttempts)
      .set({ completedAt: now, statusCode: r.statusCode, error: r.error })
      .where(and(eq(notificationDeliveryAttempts.deliveryId, deliveryId), eq(notificationDeliveryAttempts.number, claimed.number)));
    await tx
      .update(notificationDeliveries)
      .set({
        status: outcome === "retry" ? "pending" : outcome,
        attemptCount: sql`greatest(${notificationDeliveries.attemptCount}, ${slot})`,
        nextAttemptAt: waitMs === null ? null : new Date(now.getTime() + waitMs),
        updatedAt: now,
      })
      // A send that got through is recorded whatever another run wrote meanwhile; a failure only moves a pending one.
      .where(and(eq(notificationDeliveries.id, deliveryId), inArray(notificationDeliveries.status, outcome === "sent" ? ["pending", "failed"] : ["pending"])));
  });
  // Counted once a delivery ends, as the metric's help says: delivered or failed (a retry is still under way).
  if (outcome !== "retry") metrics().notificationDeliveries.inc({ channel: r.channelType ?? "deleted", status: outcome === "sent" ? "delivered" : "failed" });
  return { outcome, retryInMs: waitMs };
}
