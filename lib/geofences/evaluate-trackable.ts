import { and, asc, eq, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb, type Tx } from "@/lib/db/client";
import { accounts, locations, trackableStates, trackables, type LocationRow } from "@/lib/db/schema";
import { wakeRunner } from "@/lib/jobs/client";
import { describeError } from "@/lib/jobs/types";
import { recordAndDeliver, wholeSeconds, type Happening } from "@/lib/events/events";
import { locationSubscribers } from "@/lib/webhooks/fan-out";
import {
  batteryLowPayload,
  beaconOf,
  geofenceDwellPayload,
  geofenceEventPayload,
  locationOf,
  locationUpdatedPayload,
  statusChangedPayload,
} from "@/lib/webhooks/payloads";
import type { FenceCandidate } from "./candidates";
import { accountFences, candidatesFromCache, shapesFromCache } from "./fence-cache";
import { loadFenceState, saveFenceState, type FenceState } from "./fence-state";
import { confidenceOf, evaluatePoints, type Cursor } from "./evaluation";

/** Points evaluated per round at most; a trackable with more pending continues in another round. */
export const EVALUATION_BATCH = 2000;

/**
 * location.updated deliveries one round may start: with many subscribed endpoints a round takes fewer points, so its
 * transaction (which holds PGlite's only connection while it runs) and its fan-out stay small. 50 endpoints: 40 points.
 */
export const ROUND_DELIVERY_BUDGET = 2000;

// A type alias, not an interface: it is a step result and must be assignable to Json.
export type EvaluationResult = {
  evaluated: number;
  transitions: number;
  deliveries: number;
  /** Points passed over because their evaluation failed on every try (see RoundOptions.skipPointOnFailure). */
  skipped: number;
  more: boolean;
};

export interface RoundOptions {
  /** At most this many points (the evaluate-geofences workflow shrinks its rounds after failed tries). */
  maxPoints?: number;
  /**
   * The workflow's last try: the round is one point and, when it fails, the cursor moves past that point with a
   * logged reason instead of the error being thrown, so a point that can never be evaluated (a deterministic
   * failure) cannot stop every later location of the trackable.
   */
  skipPointOnFailure?: boolean;
}

/**
 * Brings one trackable's geofence state up to its newest locations, one round at a time: the points after the
 * evaluation cursor, in (timestamp, id) order, each decided against the candidate geofences the GiST index finds.
 * Emits geofence.entry/exit/dwell, location.updated, battery.low and device.status_changed → online: records them (all
 * but location.updated) and starts their deliveries in the same transaction. The trackable's state row is locked for
 * the duration, so concurrent evaluations of one trackable (two runners, two posts) never emit a transition twice.
 */
export async function evaluateTrackable(trackableId: string, opts: RoundOptions = {}): Promise<EvaluationResult> {
  const maxPoints = opts.skipPointOnFailure ? 1 : Math.max(1, Math.min(opts.maxPoints ?? EVALUATION_BATCH, EVALUATION_BATCH));
  let result: EvaluationResult;
  try {
    result = await evaluateRound(trackableId, maxPoints);
  } catch (err) {
    if (!opts.skipPointOnFailure) throw err;
    if (!(await skipNextPoint(trackableId, err))) throw err;
    return { evaluated: 0, transitions: 0, deliveries: 0, skipped: 1, more: true };
  }
  if (result.deliveries > 0) wakeRunner();
  return result;
}

/**
 * The trackable's state row, created when missing and locked either way, then the trackable with its account's plan
 * and geofences version. The version is read after the lock, in a statement of its own (a fresh snapshot under READ
 * COMMITTED): a geofence change that locked this trackable's state (a synthetic transition) has committed by then, so
 * the cached geofences are never older than what that change left.
 */
async function lockState(tx: Tx, trackableId: string) {
  // The usual case, a state row that exists: locked by a no-op update. Otherwise created (ON CONFLICT DO UPDATE locks
  // the row as SELECT … FOR UPDATE would, should another evaluation create it meanwhile).
  let [state] = await tx
    .update(trackableStates)
    .set({ trackableId: sql`${trackableStates.trackableId}` })
    .where(eq(trackableStates.trackableId, trackableId))
    .returning();
  if (!state) {
    const [owner] = await tx.select({ accountId: trackables.accountId }).from(trackables).where(eq(trackables.id, trackableId));
    if (!owner) return null;
    [state] = await tx
      .insert(trackableStates)
      .values({ trackableId, accountId: owner.accountId })
      .onConflictDoUpdate({ target: trackableStates.trackableId, set: { trackableId: sql`excluded.trackable_id` } })
      .returning();
  }
  const [t] = await tx
    .select({
      id: trackables.id,
      name: trackables.name,
      type: trackables.type,
      accountId: trackables.accountId,
      plan: accounts.plan,
      geofencesVersion: accounts.geofencesVersion,
    })
    .from(trackables)
    .innerJoin(accounts, eq(accounts.id, trackables.accountId))
    .where(eq(trackables.id, trackableId));
  if (!t) return null;
  const cursor: Cursor | null =
    state?.evaluatedTimestamp && state.evaluatedLocationId ? { timestamp: state.evaluatedTimestamp, id: state.evaluatedLocationId } : null;
  return { t, state, cursor };
}

/** Up to `limit` of the trackable's points after the cursor, in evaluation order. */
function pointsAfter(tx: Tx, trackableId: string, cursor: Cursor | null, limit: number): Promise<LocationRow[]> {
  return tx
    .select()
    .from(locations)
    .where(
      and(
        eq(locations.trackableId, trackableId),
        cursor ? sql`(${locations.timestamp}, ${locations.id}) > (${cursor.timestamp.toISOString()}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(locations.timestamp), asc(locations.id))
    .limit(limit);
}

/**
 * Moves the cursor past the next point without evaluating it (no event, no change of membership or status) and logs
 * why. False when there was no point to skip (the failure was not about a point).
 */
async function skipNextPoint(trackableId: string, cause: unknown): Promise<boolean> {
  const db = await getDb();
  const skipped = await db.transaction(async (tx) => {
    const locked = await lockState(tx, trackableId);
    if (!locked) return null;
    const [next] = await pointsAfter(tx, trackableId, locked.cursor, 1);
    if (!next) return null;
    await tx
      .update(trackableStates)
      .set({ evaluatedTimestamp: next.timestamp, evaluatedLocationId: next.id, updatedAt: new Date() })
      .where(eq(trackableStates.trackableId, trackableId));
    return next;
  });
  if (!skipped) return false;
  const reason = describeError(cause).slice(0, 500);
  console.error(
    `[geofences] skipped location ${skipped.id} of trackable ${trackableId} (${skipped.timestamp.toISOString()}): ` +
      `its evaluation failed on every try (${reason}); it emits no event, and the trackable's later locations are evaluated`,
  );
  return true;
}

/** One round in one transaction: at most maxPoints points, fewer when the account's fan-out per point is large. */
async function evaluateRound(trackableId: string, maxPoints: number): Promise<EvaluationResult> {
  const db = await getDb();
  const threshold = env().BATTERY_LOW_THRESHOLD;
  return db.transaction(async (tx) => {
    const none: EvaluationResult = { evaluated: 0, transitions: 0, deliveries: 0, skipped: 0, more: false };
    const locked = await lockState(tx, trackableId);
    if (!locked) return none;
    const { t, state, cursor } = locked;

    const perPoint = await locationSubscribers(tx, { id: t.accountId, plan: t.plan });
    const limit = Math.max(1, Math.min(maxPoints, Math.floor(ROUND_DELIVERY_BUDGET / Math.max(1, perPoint))));
    const fetched = await pointsAfter(tx, trackableId, cursor, limit + 1);
    if (fetched.length === 0) return none;
    const more = fetched.length > limit;
    const points = more ? fetched.slice(0, limit) : fetched;

    // The account's geofences from memory (current by its version); an account without any costs no query for them.
    const fenceSet = await accountFences(tx, t.accountId, t.geofencesVersion);
    const before: FenceState =
      fenceSet.fences.length === 0
        ? { inside: new Set(), memory: new Map(), shapes: new Map() }
        : await loadFenceState(tx, { accountId: t.accountId, trackableId }, (ids) => shapesFromCache(fenceSet, trackableId, ids));
    const candidates = candidatesFromCache(fenceSet, trackableId, points);
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
    return { evaluated: fresh.length, transitions: evaluation.transitions.length, deliveries, skipped: 0, more };
  });
}
