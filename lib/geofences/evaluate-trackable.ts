import { and, asc, eq, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { accounts, locations, trackableStates, trackables, type LocationRow } from "@/lib/db/schema";
import { wakeRunner } from "@/lib/jobs/client";
import { recordAndDeliver, wholeSeconds, type Happening } from "@/lib/events/events";
import {
  batteryLowPayload,
  beaconOf,
  geofenceDwellPayload,
  geofenceEventPayload,
  locationOf,
  locationUpdatedPayload,
  statusChangedPayload,
} from "@/lib/webhooks/payloads";
import { findCandidates, type FenceCandidate } from "./candidates";
import { loadFenceState, saveFenceState } from "./fence-state";
import { confidenceOf, evaluatePoints, type Cursor } from "./evaluation";

/** Points evaluated per transaction; a trackable with more pending continues in another round. */
export const EVALUATION_BATCH = 2000;

// A type alias, not an interface: it is a step result and must be assignable to Json.
export type EvaluationResult = {
  evaluated: number;
  transitions: number;
  deliveries: number;
  more: boolean;
};

/**
 * Brings one trackable's geofence state up to its newest locations: the points after the evaluation cursor, in
 * (timestamp, id) order, each decided by haversine against the candidate geofences the GiST index finds. Emits
 * geofence.entry/exit, location.updated, battery.low and device.status_changed → online: records them (all but
 * location.updated) and starts their deliveries in the same transaction. The trackable's state row is locked for the duration, so concurrent evaluations of one
 * trackable (two runners, two posts) are serialized and never emit a transition twice.
 */
export async function evaluateTrackable(trackableId: string): Promise<EvaluationResult> {
  const db = await getDb();
  const threshold = env().BATTERY_LOW_THRESHOLD;
  const result = await db.transaction(async (tx) => {
    const [t] = await tx
      .select({ id: trackables.id, name: trackables.name, type: trackables.type, accountId: trackables.accountId, plan: accounts.plan })
      .from(trackables)
      .innerJoin(accounts, eq(accounts.id, trackables.accountId))
      .where(eq(trackables.id, trackableId));
    const none: EvaluationResult = { evaluated: 0, transitions: 0, deliveries: 0, more: false };
    if (!t) return none;

    // The state row, created when missing and locked either way (ON CONFLICT DO UPDATE locks it as SELECT … FOR UPDATE would).
    const [state] = await tx
      .insert(trackableStates)
      .values({ trackableId, accountId: t.accountId })
      .onConflictDoUpdate({ target: trackableStates.trackableId, set: { trackableId: sql`excluded.trackable_id` } })
      .returning();
    const cursor: Cursor | null =
      state?.evaluatedTimestamp && state.evaluatedLocationId ? { timestamp: state.evaluatedTimestamp, id: state.evaluatedLocationId } : null;

    const fetched = await tx
      .select()
      .from(locations)
      .where(
        and(
          eq(locations.trackableId, trackableId),
          cursor ? sql`(${locations.timestamp}, ${locations.id}) > (${cursor.timestamp.toISOString()}::timestamptz, ${cursor.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(locations.timestamp), asc(locations.id))
      .limit(EVALUATION_BATCH + 1);
    if (fetched.length === 0) return none;
    const more = fetched.length > EVALUATION_BATCH;
    const points = more ? fetched.slice(0, EVALUATION_BATCH) : fetched;

    const before = await loadFenceState(tx, { accountId: t.accountId, trackableId });
    const candidates = await findCandidates(tx, { accountId: t.accountId, trackableId, points });
    const fences = new Map<string, FenceCandidate>(before.shapes);
    for (const list of candidates) for (const c of list) fences.set(c.id, c);
    const indexOf = new Map(points.map((p, i) => [p.id, i]));
    const evaluation = evaluatePoints<LocationRow>({
      cursor,
      inside: before.inside,
      memory: before.memory,
      points,
      candidates: (p) => candidates[indexOf.get(p.id)!] ?? [],
      shapes: fences,
    });
    await saveFenceState(tx, trackableId, before, evaluation, evaluation.transitions);

    // Events, in the order they happened: recorded on every plan, delivered from the records.
    const beacon = beaconOf(t);
    const events: Happening[] = [];
    const fresh = evaluation.fresh;
    const first = fresh[0];
    if (first && state?.status !== "online") {
      events.push({
        record: { type: "device.status_changed", trackableId, occurredAt: first.receivedAt },
        outgoing: {
          event: "device.status_changed",
          trackableId,
          payload: statusChangedPayload(beacon, first.receivedAt, state?.status ?? "offline", "online"),
        },
      });
    }
    const byPoint = new Map<string, typeof evaluation.transitions>();
    for (const tr of evaluation.transitions) byPoint.set(tr.point.id, [...(byPoint.get(tr.point.id) ?? []), tr]);
    let battery = state?.battery ?? null;
    for (const p of fresh) {
      const location = locationOf(p);
      for (const tr of byPoint.get(p.id) ?? []) {
        const g = fences.get(tr.geofenceId)!;
        const type = `geofence.${tr.kind}` as const;
        // A debounced crossing carries the time and place of its first point on the new side.
        const dated = tr.at ?? tr.point;
        const where = locationOf({ ...dated, accuracy: dated.accuracy ?? null });
        const crossing = tr.kind !== "dwell";
        events.push({
          record: {
            type,
            trackableId,
            geofenceId: g.id,
            occurredAt: dated.timestamp,
            location: where,
            reason: crossing ? "crossing" : "dwell",
            durationSeconds: tr.kind === "dwell" ? tr.dwellSeconds! : tr.kind === "exit" && tr.since ? wholeSeconds(tr.since, dated.timestamp) : null,
            confidence: tr.kind === "dwell" ? null : confidenceOf(tr.kind, g, dated),
          },
          outgoing: {
            event: type,
            trackableId,
            geofence: g,
            payload:
              tr.kind === "dwell" ? geofenceDwellPayload(g, beacon, where, tr.dwellSeconds!) : geofenceEventPayload(type as "geofence.entry" | "geofence.exit", g, beacon, where),
          },
        });
      }
      events.push({ record: null, outgoing: { event: "location.updated", trackableId, payload: locationUpdatedPayload(beacon, location) } });
      if (p.battery !== null) {
        // Fires on the fall below the threshold; a device whose first reading is already low counts as falling.
        if (p.battery < threshold && (battery === null || battery >= threshold)) {
          events.push({
            record: { type: "battery.low", trackableId, occurredAt: p.timestamp, location },
            outgoing: { event: "battery.low", trackableId, payload: batteryLowPayload(beacon, location, p.battery, threshold) },
          });
        }
        battery = p.battery;
      }
    }

    const last = fresh[fresh.length - 1] ?? points[points.length - 1]!;
    const lastSeen = points.reduce((max, p) => (p.receivedAt > max ? p.receivedAt : max), state?.lastSeenAt ?? new Date(0));
    await tx
      .update(trackableStates)
      .set({
        evaluatedTimestamp: last.timestamp,
        evaluatedLocationId: last.id,
        status: fresh.length > 0 ? "online" : state?.status ?? null,
        lastSeenAt: lastSeen,
        battery,
        updatedAt: new Date(),
      })
      .where(eq(trackableStates.trackableId, trackableId));

    const deliveries = await recordAndDeliver(tx, { id: t.accountId, plan: t.plan }, events);
    return { evaluated: fresh.length, transitions: evaluation.transitions.length, deliveries, more };
  });
  if (result.deliveries > 0) wakeRunner();
  return result;
}
