import { eq } from "drizzle-orm";
import { env } from "@/lib/config/env";
import type { AccountRef } from "@/lib/context";
import { getDb, type Executor, type Tx } from "@/lib/db/client";
import { epochMs as ms, queryRows } from "@/lib/db/rows";
import { trackableStates, type LocationRow, type TrackableStateRow, type WebhookEvent } from "@/lib/db/schema";
import { describeError } from "@/lib/jobs/types";
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
import type { FenceCandidate } from "./candidates";
import { accountFences, candidatesFromCache, shapesFromCache, type AccountFences } from "./fence-cache";
import { fenceRowsOf, fenceStateColumns, fenceStatesOf, saveFenceStates, type FenceStateChange, type FenceStateJson, type FenceStateRows } from "./fence-state";
import { confidenceOf, evaluatePoints, type Cursor } from "./evaluation";
import { wakeDeliveries, type Endpoint } from "@/lib/webhooks/fan-out";
import { activePrevious, type Previous } from "@/lib/webhooks/rotation";

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
  let result: RoundResult;
  try {
    result = await evaluateRound([trackableId], maxPoints);
  } catch (err) {
    if (!opts.skipPointOnFailure) throw err;
    if (!(await skipNextPoint(trackableId, err))) throw err;
    return { evaluated: 0, transitions: 0, deliveries: 0, skipped: 1, more: true };
  }
  if (result.deliveries > 0) wakeDeliveries();
  return { ...result, more: result.more.length > 0 };
}

/**
 * One round for many trackables at once (the coalesced path: every trackable whose points came in while the last
 * round ran): their points after each one's cursor, EVALUATION_BATCH at most in all, evaluated and written with a
 * fixed number of statements whatever the number of trackables. The result names the trackables with points left.
 */
export async function evaluateTrackables(trackableIds: readonly string[]): Promise<RoundResult> {
  const ids = [...new Set(trackableIds)];
  if (ids.length === 0) return { evaluated: 0, transitions: 0, deliveries: 0, skipped: 0, more: [] };
  const result = await evaluateRound(ids, EVALUATION_BATCH);
  if (result.deliveries > 0) wakeDeliveries();
  return result;
}

// The round's reads and its state write are SQL text with the trackables as one uuid[] parameter: the same text for
// any number of trackables, prepared once per connection, so a round builds no query and maps no row through the
// query builder (drizzle's building and mapping was ~0.15 ms a round, about a sixth of a device post's CPU).
// Timestamps come back as epoch milliseconds (float8, exact for the millisecond precision they are stored with).
const LOCK_STATES = `select trackable_id as "trackableId", ${ms("evaluated_timestamp")} as "evaluatedMs",
    evaluated_location_id as "evaluatedLocationId", status, ${ms("last_seen_at")} as "lastSeenMs", battery
  from trackable_states where trackable_id = any($1::uuid[]) order by trackable_id for update`;
const CREATE_STATES = `insert into trackable_states (trackable_id, account_id)
  select id, account_id from trackables where id = any($1::uuid[]) order by id
  on conflict (trackable_id) do nothing`;
/**
 * The rest of what a round reads, one row per trackable (deleted ones have none), in one statement: the trackable
 * with its account's plan and geofences version; up to $2 points after its cursor, in evaluation order; its
 * memberships and pending crossings; and, on the first row of each enterprise account, the account's enabled
 * endpoints. The lists come as JSON arrays of tuples (null when empty): one statement instead of five, whatever the
 * number of trackables.
 */
const READS = `select t.id, t.name, t.type, t.account_id as "accountId", a.plan, a.geofences_version as "geofencesVersion",
    (select json_agg(json_build_array(n.id, n.latitude, n.longitude, n.accuracy, n.battery, ${ms("n.timestamp")}, ${ms("n.received_at")})
        order by n.timestamp, n.id)
      from (
        select l.id, l.latitude, l.longitude, l.accuracy, l.battery, l.timestamp, l.received_at
        from locations l
        where l.trackable_id = t.id
          and (l.timestamp, l.id) > (coalesce(s.evaluated_timestamp, '-infinity'::timestamptz), coalesce(s.evaluated_location_id, '00000000-0000-0000-0000-000000000000'::uuid))
        order by l.timestamp, l.id
        limit $2::int4) n) as points,
    ${fenceStateColumns("t.id")},
    case when a.plan = 'enterprise' and row_number() over (partition by t.account_id order by t.id) = 1 then
      (select json_agg(json_build_array(w.id, w.url, w.events, w.secret, w.previous_secret, ${ms("w.previous_secret_expires_at")}))
        from webhooks w where w.account_id = t.account_id and w.enabled)
    end as endpoints
  from trackables t
  join accounts a on a.id = t.account_id
  join trackable_states s on s.trackable_id = t.id
  where t.id = any($1::uuid[])`;
const SAVE_STATES = `update trackable_states s set
    evaluated_timestamp = v.ts, evaluated_location_id = v.location_id, status = v.status, last_seen_at = v.seen,
    battery = v.battery, updated_at = $7::timestamptz
  from unnest($1::uuid[], $2::text[]::timestamptz[], $3::uuid[], $4::text[], $5::text[]::timestamptz[], $6::float8[])
    as v(id, ts, location_id, status, seen, battery)
  where s.trackable_id = v.id`;

/** What a round reads of a trackable's state row. */
type LockedState = Pick<TrackableStateRow, "trackableId" | "status" | "lastSeenAt" | "battery">;
type StateRow = Pick<LockedState, "trackableId" | "status" | "battery"> & { evaluatedMs: number | null; evaluatedLocationId: string | null; lastSeenMs: number | null };
type Owner = { id: string; name: string; type: string; accountId: string; plan: "free" | "enterprise"; geofencesVersion: number };
type ReadRow = Owner &
  FenceStateJson & {
    points: Array<[id: string, latitude: number, longitude: number, accuracy: number | null, battery: number | null, timestampMs: number, receivedMs: number]> | null;
    endpoints: Array<[id: string, url: string, events: WebhookEvent[], secret: string | null, previousSecret: string | null, previousSecretExpiresMs: number | null]> | null;
  };

/** The columns of a location that evaluation reads. */
type Point = Pick<LocationRow, "id" | "trackableId" | "latitude" | "longitude" | "accuracy" | "battery" | "timestamp" | "receivedAt">;

/** What a round reads under its locks, per trackable (see lockAndRead). */
interface Locked {
  t: Owner;
  state: LockedState;
  cursor: Cursor | null;
}

interface LockedReads {
  locked: Locked[];
  endpoints: Endpoint[];
  points: Map<string, Point[]>;
  fenceRows: FenceStateRows;
}

/**
 * Locks the trackables' state rows (created when missing) in id order — two rounds sharing trackables lock them in the
 * same order and never deadlock — and reads, in a statement issued right behind the locks (one round trip, run after
 * them, in a snapshot taken once the locks are held): the trackables with their accounts' plan and geofences
 * version, the enabled endpoints of their enterprise accounts, up to `limit` points after each one's cursor, and their
 * memberships and pending crossings (READS). A geofence change that locked a trackable's state (a synthetic transition) has
 * committed by the time these reads start, so the cached geofences are never older than what that change left.
 * Deleted trackables are left out.
 */
async function lockAndRead(tx: Tx, trackableIds: readonly string[], limit: number, createMissing = true): Promise<LockedReads> {
  const ids = [...trackableIds].sort();
  const [rows, reads] = await Promise.all([queryRows<StateRow>(tx, LOCK_STATES, [ids]), queryRows<ReadRow>(tx, READS, [ids, limit])]);
  if (rows.length < ids.length && createMissing) {
    // A trackable without its state row (createTrackable makes it; one made before that, or a crash between the two
    // statements): created, then everything locked and read again, once (a deleted trackable stays missing).
    const have = new Set(rows.map((s) => s.trackableId));
    await createTrackableStates(tx, ids.filter((id) => !have.has(id)));
    return lockAndRead(tx, ids, limit, false);
  }
  const byId = new Map(reads.map((r) => [r.id, r]));
  const locked = rows.flatMap((row): Locked[] => {
    const read = byId.get(row.trackableId);
    if (!read) return [];
    const t: Owner = { id: read.id, name: read.name, type: read.type, accountId: read.accountId, plan: read.plan, geofencesVersion: read.geofencesVersion };
    const state: LockedState = {
      trackableId: row.trackableId,
      status: row.status,
      lastSeenAt: row.lastSeenMs === null ? null : new Date(row.lastSeenMs),
      battery: row.battery,
    };
    const cursor: Cursor | null =
      row.evaluatedMs !== null && row.evaluatedLocationId ? { timestamp: new Date(row.evaluatedMs), id: row.evaluatedLocationId } : null;
    return [{ t, state, cursor }];
  });
  const endpoints = reads.flatMap((r) =>
    (r.endpoints ?? []).map(
      ([id, url, events, secret, previousSecret, expiresMs]): Endpoint => ({
        id,
        accountId: r.accountId,
        url,
        events,
        secret,
        previousSecret,
        previousSecretExpiresAt: expiresMs === null ? null : new Date(expiresMs),
      }),
    ),
  );
  return { locked, endpoints, points: pointsByTrackable(reads), fenceRows: fenceRowsOf(reads) };
}

/**
 * The evaluation state rows of these trackables, where missing (createTrackable makes a new trackable's; a round makes
 * any that is still missing before it locks them). One statement, in id order.
 */
export function createTrackableStates(db: Executor, trackableIds: readonly string[]): Promise<unknown> {
  return queryRows(db, CREATE_STATES, [[...trackableIds].sort()]);
}

/** Each trackable's points, in evaluation order (as READS lists them): trackables with none are left out. */
function pointsByTrackable(rows: readonly ReadRow[]): Map<string, Point[]> {
  const byTrackable = new Map<string, Point[]>();
  for (const row of rows) {
    if (!row.points) continue;
    byTrackable.set(
      row.id,
      row.points.map(([id, latitude, longitude, accuracy, battery, timestampMs, receivedMs]) => ({
        id,
        trackableId: row.id,
        latitude,
        longitude,
        accuracy,
        battery,
        timestamp: new Date(timestampMs),
        receivedAt: new Date(receivedMs),
      })),
    );
  }
  return byTrackable;
}

/**
 * Moves the cursor past the next point without evaluating it (no event, no change of membership or status) and logs
 * why. False when there was no point to skip (the failure was not about a point).
 */
async function skipNextPoint(trackableId: string, cause: unknown): Promise<boolean> {
  const db = await getDb();
  const skipped = await db.transaction(async (tx) => {
    const { locked, points } = await lockAndRead(tx, [trackableId], 1);
    if (locked.length === 0) return null;
    const next = points.get(trackableId)?.[0];
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

/** What a round writes to a trackable's state row besides its fence state. */
interface StateUpdate {
  trackableId: string;
  last: Cursor;
  status: "online" | "offline" | null;
  lastSeenAt: Date;
  battery: number | null;
}

/** The state rows of a round, in one statement (issued, not awaited). */
function saveStates(tx: Tx, updates: readonly StateUpdate[]): Promise<unknown> {
  if (updates.length === 0) return Promise.resolve();
  const column = <T>(pick: (u: StateUpdate) => T) => updates.map(pick);
  return queryRows(tx, SAVE_STATES, [
    column((u) => u.trackableId),
    column((u) => u.last.timestamp.toISOString()),
    column((u) => u.last.id),
    column((u) => u.status),
    column((u) => u.lastSeenAt.toISOString()),
    column((u) => u.battery),
    new Date().toISOString(),
  ]);
}

/**
 * One round in one transaction, for one trackable or many: at most maxPoints points in all (fewer when the accounts'
 * fan-out per point is large), shared evenly between the trackables, each decided against the geofences its account
 * has in the cache. Emits geofence.entry/exit/dwell, location.updated, battery.low and device.status_changed → online:
 * records them (all but location.updated) and starts their deliveries in the same transaction. The trackables' state
 * rows are locked for the duration, so concurrent evaluations of a trackable (two runners, two posts) never emit a
 * transition twice.
 */
async function evaluateRound(trackableIds: readonly string[], maxPoints: number): Promise<RoundResult> {
  const db = await getDb();
  const threshold = env().BATTERY_LOW_THRESHOLD;
  return db.transaction(async (tx) => {
    const result: RoundResult = { evaluated: 0, transitions: 0, deliveries: 0, skipped: 0, more: [] };
    // Points are read with the locks, before the endpoints that size the round are known: at most `cap` (+1, to see
    // whether there are more) per trackable, which is the round's share of maxPoints per trackable.
    const cap = Math.max(1, Math.floor(maxPoints / trackableIds.length));
    const { locked, endpoints, points: fetched, fenceRows } = await lockAndRead(tx, trackableIds, cap + 1);
    if (locked.length === 0) return result;

    // The enabled endpoints of the enterprise accounts among them: the fan-out's targets, and how many deliveries
    // each point makes through location.updated (which sizes the round).
    const endpointsOf = new Map<string, Endpoint[]>();
    for (const e of endpoints) {
      let list = endpointsOf.get(e.accountId);
      if (!list) endpointsOf.set(e.accountId, (list = []));
      list.push(e);
    }
    const perPoint = Math.max(1, ...[...endpointsOf.values()].map((list) => list.filter((e) => e.events.includes("location.updated")).length));
    const budget = Math.min(maxPoints, Math.floor(ROUND_DELIVERY_BUDGET / perPoint));
    const limit = Math.min(cap, Math.max(1, Math.floor(budget / locked.length)));
    const work = locked.filter((l) => fetched.has(l.t.id));
    if (work.length === 0) return result;

    // Each account's geofences from memory (current by its version); an account without any costs no query for them.
    const fenceSets = new Map<string, AccountFences>();
    for (const { t } of work) {
      if (!fenceSets.has(t.accountId)) fenceSets.set(t.accountId, await accountFences(tx, t.accountId, t.geofencesVersion));
    }
    const fenced = work.filter((l) => fenceSets.get(l.t.accountId)!.fences.length > 0).map((l) => l.t.id);
    const accountOf = new Map(work.map((l) => [l.t.id, l.t.accountId]));
    const { states, writes } = fenceStatesOf(tx, fenced, fenceRows, (trackableId, ids) =>
      shapesFromCache(fenceSets.get(accountOf.get(trackableId)!)!, trackableId, ids),
    );

    const changes: FenceStateChange[] = [];
    const updates: StateUpdate[] = [];
    const happenings = new Map<string, { account: AccountRef; list: Happening[] }>();
    for (const { t, state, cursor } of work) {
      const all = fetched.get(t.id)!;
      const more = all.length > limit;
      if (more) result.more.push(t.id);
      const points = more ? all.slice(0, limit) : all;
      const fenceSet = fenceSets.get(t.accountId)!;
      const before = states.get(t.id) ?? { inside: new Set<string>(), memory: new Map(), shapes: new Map<string, FenceCandidate>() };
      const candidates = fenceSet.fences.length === 0 ? null : candidatesFromCache(fenceSet, t.id, points);
      const evaluation = evaluatePoints<Point>({
        cursor,
        inside: before.inside,
        memory: before.memory,
        points,
        // candidatesFromCache lists them by the point's position in `points`, which is what evaluatePoints passes.
        candidates: candidates ? (_, i) => candidates[i]! : () => [],
        shapes: before.shapes,
      });
      if (fenceSet.fences.length > 0) changes.push({ trackableId: t.id, before, after: evaluation, transitions: evaluation.transitions });

      const account = { id: t.accountId, plan: t.plan };
      let forAccount = happenings.get(t.accountId);
      if (!forAccount) happenings.set(t.accountId, (forAccount = { account, list: [] }));
      const battery = happeningsOf(forAccount.list, {
        t,
        state,
        evaluation,
        fenceOf: (id) => fenceSet.fences[fenceSet.position.get(id)!]!,
        threshold,
        delivers: deliversFor(t.plan, endpointsOf.get(t.accountId)),
        previousSecretOf: (g) => {
          const previous = fenceSet.previousSecrets.get(g.id);
          return previous ? activePrevious(previous.secret, previous.expiresAt) : null;
        },
      });

      const fresh = evaluation.fresh;
      const last = fresh[fresh.length - 1] ?? points[points.length - 1]!;
      updates.push({
        trackableId: t.id,
        last: { timestamp: last.timestamp, id: last.id },
        status: fresh.length > 0 ? "online" : state.status,
        lastSeenAt: points.reduce((max, p) => (p.receivedAt > max ? p.receivedAt : max), state.lastSeenAt ?? new Date(0)),
        battery,
      });
      result.evaluated += fresh.length;
      result.transitions += evaluation.transitions.length;
    }

    // Every write of the round issued at once (one round trip): the fence and trackable states, then the events, in
    // the order they happened, recorded on every plan and delivered from the records.
    writes.push(...saveFenceStates(tx, changes), saveStates(tx, updates));
    for (const { account, list } of happenings.values()) {
      writes.push(recordAndDeliver(tx, account, list, endpointsOf.get(account.id) ?? []).then((n) => (result.deliveries += n)));
    }
    await Promise.all(writes);
    return result;
  });
}

/**
 * Whether an event would be delivered anywhere (what fanOut would find for it): on the enterprise plan, to the
 * geofence's own webhook or to an enabled endpoint subscribed to the event. Nothing is made to be delivered otherwise.
 */
function deliversFor(plan: string, endpoints: readonly Endpoint[] = []) {
  const subscribed = new Set(endpoints.flatMap((e) => e.events));
  return (event: WebhookEvent, fence?: FenceCandidate): boolean =>
    plan === "enterprise" && (subscribed.has(event) || (fence?.notificationType === "webhook" && !!fence.webhookUrl));
}

/**
 * Appends what one trackable's evaluated points made happen to `events`, in the order it happened (recorded on every
 * plan; the deliveries only made where `delivers` says one goes); returns the trackable's battery level after them.
 */
function happeningsOf(
  events: Happening[],
  input: {
    t: Locked["t"];
    state: LockedState;
    evaluation: ReturnType<typeof evaluatePoints<Point>>;
    /** The geofence of a transition (every one comes from the account's fence cache). */
    fenceOf: (geofenceId: string) => FenceCandidate;
    threshold: number;
    delivers: ReturnType<typeof deliversFor>;
    /** The geofence's webhook's previous secret while a rotation's overlap lasts (the fence cache holds it). */
    previousSecretOf: (g: FenceCandidate) => Previous;
  },
): number | null {
  const { t, state, evaluation, fenceOf, threshold, delivers, previousSecretOf } = input;
  const trackableId = t.id;
  const beacon = beaconOf(t);
  const fresh = evaluation.fresh;
  const first = fresh[0];
  if (first && state.status !== "online") {
    events.push({
      record: { type: "device.status_changed", trackableId, occurredAt: first.receivedAt },
      outgoing: delivers("device.status_changed")
        ? { event: "device.status_changed", trackableId, payload: statusChangedPayload(beacon, first.receivedAt, state.status ?? "offline", "online") }
        : null,
    });
  }
  // The transitions come in the order of the points that emitted them (evaluatePoints): each point's are the next ones.
  const transitions = evaluation.transitions;
  let next = 0;
  let battery = state.battery;
  for (const p of fresh) {
    for (; next < transitions.length && transitions[next]!.point === p; next++) {
      const tr = transitions[next]!;
      const g = fenceOf(tr.geofenceId);
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
        outgoing: delivers(type, g)
          ? {
              event: type,
              trackableId,
              geofence: { ...g, previousSecret: previousSecretOf(g) },
              payload:
                tr.kind === "dwell" ? geofenceDwellPayload(g, beacon, where, tr.dwellSeconds!) : geofenceEventPayload(type as "geofence.entry" | "geofence.exit", g, beacon, where),
            }
          : null,
      });
    }
    if (delivers("location.updated")) {
      events.push({ record: null, outgoing: { event: "location.updated", trackableId, payload: locationUpdatedPayload(beacon, locationOf(p)) } });
    }
    if (p.battery !== null) {
      // Fires on the fall below the threshold; a device whose first reading is already low counts as falling.
      if (p.battery < threshold && (battery === null || battery >= threshold)) {
        const location = locationOf(p);
        events.push({
          record: { type: "battery.low", trackableId, occurredAt: p.timestamp, location },
          outgoing: delivers("battery.low") ? { event: "battery.low", trackableId, payload: batteryLowPayload(beacon, location, p.battery, threshold) } : null,
        });
      }
      battery = p.battery;
    }
  }
  if (next < transitions.length) throw new Error(`evaluation: a transition of trackable ${trackableId} is not at one of its fresh points, in their order`);
  return battery;
}
