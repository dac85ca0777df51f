import { env } from "@/lib/config/env";
import type { AccountRef } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { beaconOf } from "@/lib/events/payloads";
import { EVENTS } from "@/lib/events/registry";
import type { Endpoint, ProducedEvent } from "@/lib/events/produced";
import { deliveriesOf, eventsCommitted, recordEvents, wanted, type Recording } from "@/lib/events/record";
import { motionRound } from "@/lib/motion/round";
import { batteryLow, locationUpdated, statusChanged } from "@/lib/trackables/device-events";
import { fenceRound, type FenceRound, type PointEvaluation } from "./fence-round";
import { lockAndRead, saveStates, skipNextPoint, type Locked, type LockedState, type StateUpdate } from "./round-state";
import { transitionEvent } from "./transition-events";

// The evaluation pipeline, one round at a time: lock and read the trackables' state (round-state.ts), decide their
// points against the geofences (fence-round.ts), produce the events of transitions, status, battery and locations in
// the order they happened, and hand them to lib/events, which records them and lets its consumers react.

/** Points evaluated per round at most, over all of its trackables; a trackable with more pending continues in another round. */
export const EVALUATION_BATCH = 2000;

/**
 * location.updated deliveries one round may start: with many subscribed endpoints a round takes fewer points, so its
 * transaction (which holds PGlite's only connection while it runs) and its fan-out stay small. 50 endpoints: 40 points.
 */
export const ROUND_DELIVERY_BUDGET = 2000;

/** Trackables one coalesced evaluation takes at most (the evaluate-geofences workflow's batch size). */
export const TRACKABLES_PER_RUN = 100;

// A type alias, not an interface: it is a step result and must be assignable to Json.
export type EvaluationResult = {
  evaluated: number;
  transitions: number;
  deliveries: number;
  /** Points passed over because their evaluation failed on every try (see RoundOptions.skipPointOnFailure). */
  skipped: number;
  more: boolean;
};

/** A round of several trackables: the totals, and the trackables that have points left for another round. */
export type RoundResult = Omit<EvaluationResult, "more"> & { more: string[] };

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
 * Brings one trackable's geofence state up to its newest locations by one round (see evaluateRound): the retry path
 * of the evaluate-geofences workflow, whose rounds shrink after failed tries down to one point that is skipped on the
 * last try.
 */
export async function evaluateTrackable(trackableId: string, opts: RoundOptions = {}): Promise<EvaluationResult> {
  const maxPoints = opts.skipPointOnFailure ? 1 : Math.max(1, Math.min(opts.maxPoints ?? EVALUATION_BATCH, EVALUATION_BATCH));
  let result: RoundResult & { recordings: Recording[] };
  try {
    result = await evaluateRound([trackableId], maxPoints);
  } catch (err) {
    if (!opts.skipPointOnFailure) throw err;
    if (!(await skipNextPoint(trackableId, err))) throw err;
    return { evaluated: 0, transitions: 0, deliveries: 0, skipped: 1, more: true };
  }
  return { ...committed(result), more: result.more.length > 0 };
}

/**
 * One round for many trackables at once (the coalesced path: every trackable whose points came in while the last
 * round ran): their points after each one's cursor, EVALUATION_BATCH at most in all, evaluated and written with a
 * fixed number of statements whatever the number of trackables. The result names the trackables with points left.
 */
export async function evaluateTrackables(trackableIds: readonly string[]): Promise<RoundResult> {
  const ids = [...new Set(trackableIds)];
  if (ids.length === 0) return { evaluated: 0, transitions: 0, deliveries: 0, skipped: 0, more: [] };
  return committed(await evaluateRound(ids, EVALUATION_BATCH));
}

/** A round's result once its transaction committed: its recordings are handed to eventsCommitted, and dropped. */
function committed({ recordings, ...result }: RoundResult & { recordings: Recording[] }): RoundResult {
  eventsCommitted(...recordings);
  return result;
}

/**
 * One round in one transaction, for one trackable or many: at most maxPoints points in all (fewer when the accounts'
 * fan-out per point is large), shared evenly between the trackables, each decided against the geofences its account
 * has in the cache. Produces geofence.entry/exit/dwell, location.updated, battery.low and device.status_changed →
 * online, and records them (lib/events) in the same transaction, which starts their deliveries. The trackables' state
 * rows are locked for the duration, so concurrent evaluations of a trackable (two runners, two posts) never emit a
 * transition twice.
 */
async function evaluateRound(trackableIds: readonly string[], maxPoints: number): Promise<RoundResult & { recordings: Recording[] }> {
  const db = await getDb();
  const threshold = env().BATTERY_LOW_THRESHOLD;
  return db.transaction(async (tx) => {
    const result: RoundResult & { recordings: Recording[] } = { evaluated: 0, transitions: 0, deliveries: 0, skipped: 0, more: [], recordings: [] };
    // Points are read with the locks, before the endpoints that size the round are known: at most `cap` (+1, to see
    // whether there are more) per trackable, which is the round's share of maxPoints per trackable.
    const cap = Math.max(1, Math.floor(maxPoints / trackableIds.length));
    const { locked, endpoints, points: fetched, fenceRows, motion: motionReads, notificationsVersions } = await lockAndRead(tx, trackableIds, cap + 1, { motion: true });
    if (locked.length === 0) return result;

    // The enabled endpoints of the enterprise accounts among them: the webhook consumer's targets, and how many
    // deliveries each point makes through location.updated (which sizes the round).
    const endpointsOf = new Map<string, Endpoint[]>();
    for (const e of endpoints) {
      let list = endpointsOf.get(e.accountId);
      if (!list) endpointsOf.set(e.accountId, (list = []));
      list.push(e);
    }
    const perPoint = Math.max(1, ...[...endpointsOf.values()].map((list) => list.filter((e) => e.events.includes("location.updated")).length));
    const budget = Math.min(maxPoints, Math.floor(ROUND_DELIVERY_BUDGET / perPoint));
    const limit = Math.min(cap, Math.max(1, Math.floor(budget / locked.length)));
    // Motion looks at every locked trackable: a late fix (older than the evaluation cursor) is fetched by no round,
    // yet recomputes its trips.
    const motion = await motionRound(tx, locked.map((l) => l.t), { reads: motionReads, cursors: new Map(locked.map((l) => [l.t.id, l.cursor])) });
    const work = locked.filter((l) => fetched.has(l.t.id));
    if (work.length === 0 && motion.writes.length === 0) return result;

    const fences = await fenceRound(tx, work.map((l) => l.t), fenceRows);
    const updates: StateUpdate[] = [];
    const produced = new Map<string, { account: AccountRef; list: ProducedEvent[]; endpoints: Endpoint[] }>();
    const eventsFor = (t: Locked["t"]) => {
      let forAccount = produced.get(t.accountId);
      if (!forAccount) {
        const account = { id: t.accountId, plan: t.plan };
        produced.set(t.accountId, (forAccount = { account, list: [], endpoints: endpointsOf.get(t.accountId) ?? [] }));
      }
      return forAccount;
    };
    for (const { t, state, cursor } of work) {
      const all = fetched.get(t.id)!;
      const more = all.length > limit;
      if (more) result.more.push(t.id);
      const points = more ? all.slice(0, limit) : all;
      const decided = fences.evaluate(t, cursor, points);

      const forAccount = eventsFor(t);
      const before = forAccount.list.length;
      const battery = eventsOf(forAccount.list, {
        t,
        state,
        evaluation: decided.evaluation,
        fences: decided,
        threshold,
        locationUpdates: wanted("location.updated", forAccount.account, { endpoints: forAccount.endpoints }),
      });

      // The round's events of a moment inside a trip belong to it.
      for (let i = before; i < forAccount.list.length; i++) {
        const e = forAccount.list[i]!;
        if (EVENTS.isRecorded(e.type)) e.tripId = motion.tripAt(t.id, e.occurredAt);
      }
      const fresh = decided.evaluation.fresh;
      const last = fresh[fresh.length - 1] ?? points[points.length - 1]!;
      updates.push({
        trackableId: t.id,
        last: { timestamp: last.timestamp, id: last.id },
        status: fresh.length > 0 ? "online" : state.status,
        lastSeenAt: points.reduce((max, p) => (p.receivedAt > max ? p.receivedAt : max), state.lastSeenAt ?? new Date(0)),
        battery,
      });
      result.evaluated += fresh.length;
      result.transitions += decided.evaluation.transitions.length;
    }

    for (const { t } of locked) {
      const list = motion.events.get(t.id);
      if (list && list.length > 0) eventsFor(t).list.push(...list);
    }

    // Every write of the round issued at once (one round trip): the fence and trackable states, then the events, in
    // the order they happened, recorded on every plan and delivered from the records.
    const writes = [...motion.writes, ...fences.writes];
    writes.push(...fences.save(), saveStates(tx, updates, motion.states));
    for (const { account, list, endpoints: known } of produced.values()) {
      const prefetched = { endpoints: known, notificationsVersion: notificationsVersions.get(account.id) };
      writes.push(recordEvents(tx, account, list, prefetched).then((r) => result.recordings.push(r)));
    }
    await Promise.all(writes);
    result.deliveries = deliveriesOf(...result.recordings);
    return result;
  });
}

/**
 * Appends the events one trackable's evaluated points made to `events`, in the order they happened: its coming
 * online, then per point its transitions, its location.updated (only when a consumer wants it) and its battery.low.
 * Returns the trackable's battery level after them.
 */
function eventsOf(
  events: ProducedEvent[],
  input: {
    t: Locked["t"];
    state: LockedState;
    evaluation: PointEvaluation;
    fences: Pick<ReturnType<FenceRound["evaluate"]>, "fenceOf" | "previousSecretOf">;
    threshold: number;
    locationUpdates: boolean;
  },
): number | null {
  const { t, state, evaluation, fences, threshold, locationUpdates } = input;
  const beacon = beaconOf(t);
  const fresh = evaluation.fresh;
  const first = fresh[0];
  if (first && state.status !== "online") events.push(statusChanged(beacon, state.status ?? "offline", "online", first.receivedAt));
  // The transitions come in the order of the points that emitted them (evaluatePoints): each point's are the next ones.
  const transitions = evaluation.transitions;
  let next = 0;
  let battery = state.battery;
  for (const p of fresh) {
    for (; next < transitions.length && transitions[next]!.point === p; next++) {
      const tr = transitions[next]!;
      events.push(transitionEvent(beacon, tr, fences.fenceOf(tr.geofenceId), fences.previousSecretOf(tr.geofenceId)));
    }
    if (locationUpdates) events.push(locationUpdated(beacon, p));
    if (p.battery !== null) {
      const low = batteryLow(beacon, p, battery, threshold);
      if (low) events.push(low);
      battery = p.battery;
    }
  }
  if (next < transitions.length) throw new Error(`evaluation: a transition of trackable ${t.id} is not at one of its fresh points, in their order`);
  return battery;
}
