import { and, gte, inArray, max, ne } from "drizzle-orm";
import { env } from "@/lib/config/env";
import type { AccountRef } from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { geofences, notificationDeliveries, trackables } from "@/lib/db/schema";
import type { EventConsumer } from "@/lib/events/consumers";
import type { RecordedEvent } from "@/lib/events/produced";
import { EVENTS } from "@/lib/events/registry";
import { enqueueMany, wakeRunner } from "@/lib/jobs/client";
import { deliverNotification } from "@/lib/jobs/workflows/deliver-notification";
import { matchDeliveries, type MatchableEvent } from "./matching";
import { accountRules } from "./rule-cache";

/**
 * Notifications as a consumer of events: in the recording transaction, each recorded event that an enabled rule
 * matches becomes a delivery per channel of the rule — pending (its deliver-notification workflow enqueued) or
 * suppressed with its reason; after the commit, this process's runner is woken to send them.
 */
export const notificationConsumer: EventConsumer = {
  name: "notifications",
  wants: (type) => EVENTS.isRecorded(type),
  consume: (tx, account, events, prefetched) => notifyEvents(tx, account, events, { version: prefetched.notificationsVersion }),
  committed: () => wakeRunner(deliverNotification.name),
};

const nameOf = (payload: Record<string, unknown> | null, key: "beacon" | "geofence"): string | undefined => {
  const v = payload?.[key];
  return v && typeof v === "object" && typeof (v as { name?: unknown }).name === "string" ? (v as { name: string }).name : undefined;
};

/**
 * The matching (rules and channels from the account's rule cache), the names the messages need and the cooldowns'
 * last notified events, then the deliveries' insert.
 */
export async function notifyEvents(
  tx: Tx,
  account: AccountRef,
  all: readonly RecordedEvent[],
  { now = new Date(), version }: { now?: Date; version?: number } = {},
): Promise<number> {
  const events = all.filter((e): e is RecordedEvent & { id: string } => e.id !== null);
  if (events.length === 0) return 0;
  const types = new Set<string>(events.map((e) => e.type));
  const cached = await accountRules(tx, account.id, version);
  const rules = cached.rules.filter((r) => r.eventTypes.some((t) => types.has(t)));
  if (rules.length === 0) return 0;

  // Names come with the payload; an event without one (a synthetic transition of a trackable never located) is named
  // from its rows.
  const missingTrackables = [...new Set(events.filter((e) => !nameOf(e.payload, "beacon")).map((e) => e.trackableId))];
  const missingGeofences = [...new Set(events.filter((e) => e.geofenceId && !nameOf(e.payload, "geofence")).map((e) => e.geofenceId!))];
  const trackableNames = new Map(
    missingTrackables.length ? (await tx.select({ id: trackables.id, name: trackables.name }).from(trackables).where(inArray(trackables.id, missingTrackables))).map((r) => [r.id, r.name]) : [],
  );
  const geofenceNames = new Map(
    missingGeofences.length ? (await tx.select({ id: geofences.id, name: geofences.name }).from(geofences).where(inArray(geofences.id, missingGeofences))).map((r) => [r.id, r.name]) : [],
  );

  const cooling = rules.filter((r) => r.cooldownSeconds > 0).map((r) => r.id);
  // Only a message within the longest cooldown of the earliest event can hold one back: the read stays on the
  // cooldown index's recent end instead of each rule's whole history.
  const longestCooldownMs = Math.max(0, ...rules.map((r) => r.cooldownSeconds)) * 1000;
  const coolingSince = new Date(Math.min(...events.map((e) => e.occurredAt.getTime())) - longestCooldownMs);
  const lastNotified = cooling.length
    ? await tx
        .select({ ruleId: notificationDeliveries.ruleId, trackableId: notificationDeliveries.trackableId, eventType: notificationDeliveries.eventType, at: max(notificationDeliveries.eventOccurredAt) })
        .from(notificationDeliveries)
        .where(
          and(
            inArray(notificationDeliveries.ruleId, cooling),
            inArray(notificationDeliveries.trackableId, [...new Set(events.map((e) => e.trackableId))]),
            ne(notificationDeliveries.status, "suppressed"),
            gte(notificationDeliveries.eventOccurredAt, coolingSince),
          ),
        )
        .groupBy(notificationDeliveries.ruleId, notificationDeliveries.trackableId, notificationDeliveries.eventType)
    : [];

  const matchable: MatchableEvent[] = events.map((e) => ({
    id: e.id,
    type: e.type,
    trackableId: e.trackableId,
    geofenceId: e.geofenceId ?? null,
    occurredAt: e.occurredAt,
    location: e.location ?? null,
    durationSeconds: e.durationSeconds ?? null,
    payload: e.payload,
    trackableName: nameOf(e.payload, "beacon") ?? trackableNames.get(e.trackableId) ?? "A trackable",
    geofenceName: nameOf(e.payload, "geofence") ?? (e.geofenceId ? (geofenceNames.get(e.geofenceId) ?? "a geofence") : null),
  }));
  const rows = matchDeliveries({
    events: matchable,
    rules,
    channels: cached.channels,
    lastNotified: lastNotified.map((l) => ({ ruleId: l.ruleId!, trackableId: l.trackableId, eventType: l.eventType, at: l.at! })),
    now,
    appUrl: env().APP_URL,
  });
  if (rows.length === 0) return 0;

  const values = rows.map((r) => ({ ...r, id: newId(), accountId: account.id }));
  // An event reaches a channel once: a pending row that another recording of it already made is not made again.
  const inserted = await tx.insert(notificationDeliveries).values(values).onConflictDoNothing().returning({ id: notificationDeliveries.id, status: notificationDeliveries.status });
  const pending = inserted.filter((r) => r.status === "pending");
  await enqueueMany(
    deliverNotification,
    pending.map((r) => ({ payload: { deliveryId: r.id }, eventId: `notify-${r.id}` })),
    { executor: tx },
  );
  return pending.length;
}
