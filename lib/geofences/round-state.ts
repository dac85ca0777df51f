import { eq } from "drizzle-orm";
import { getDb, type Executor, type Tx } from "@/lib/db/client";
import { epochMs as ms, queryRows } from "@/lib/db/rows";
import { trackableStates, type LocationRow, type TrackableStateRow, type WebhookEvent } from "@/lib/db/schema";
import type { Endpoint } from "@/lib/events/produced";
import { describeError } from "@/lib/jobs/types";
import { fenceRowsOf, fenceStateColumns, type FenceStateJson, type FenceStateRows } from "./fence-state";
import type { Cursor } from "./evaluation";
import { log } from "@/lib/log/logger";
import type { Fix, MotionSettingsInput } from "@/lib/motion/segment";
import { decodeMotionState, type MotionState } from "@/lib/motion/state";

// A round's trackable state: locking the state rows, reading everything the round needs behind the locks, and saving
// the state rows back. Evaluation of the fences is fence-round.ts; the events, evaluate-trackable.ts.

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
 * with its account's plan, geofences version and notifications version; up to $2 points after its cursor, in
 * evaluation order; its memberships and pending crossings; and, on the first row of each enterprise account, the
 * account's enabled endpoints. The lists come as JSON arrays of tuples (null when empty): one statement instead of
 * five, whatever the number of trackables. An evaluation round also takes the trackables' motion_inbox rows here (see
 * lib/motion/round.ts), in the same snapshot as the points, with the motion settings and state: motion can then use
 * these points.
 */
const readsSql = (motion: boolean) => `${motion ? MOTION_INBOX : ""}select t.id, t.name, t.type, t.account_id as "accountId", a.plan, a.geofences_version as "geofencesVersion",
    a.notifications_version as "notificationsVersion",
    (select json_agg(json_build_array(n.id, n.latitude, n.longitude, n.accuracy, n.battery, ${ms("n.timestamp")}, ${ms("n.received_at")}, n.speed)
        order by n.timestamp, n.id)
      from (
        select l.id, l.latitude, l.longitude, l.accuracy, l.battery, l.timestamp, l.received_at, l.speed
        from locations l
        where l.trackable_id = t.id
          and (l.timestamp, l.id) > (coalesce(s.evaluated_timestamp, '-infinity'::timestamptz), coalesce(s.evaluated_location_id, '00000000-0000-0000-0000-000000000000'::uuid))
        order by l.timestamp, l.id
        limit $2::int4) n) as points,
    ${fenceStateColumns("t.id")},
    case when a.plan = 'enterprise' and row_number() over (partition by t.account_id order by t.id) = 1 then
      (select json_agg(json_build_array(w.id, w.url, w.events, w.secret, w.previous_secret, ${ms("w.previous_secret_expires_at")}))
        from webhooks w where w.account_id = t.account_id and w.enabled)
    end as endpoints${
      motion
        ? `,
    t.motion, s.motion_state as "motionState", i.earliest_ms as "inboxEarliestMs",
    case when i.earliest_ms is not null then (select l.id from locations l where l.trackable_id = t.id order by l.id desc limit 1) end as "newestId"`
        : ""
    }
  from trackables t
  join accounts a on a.id = t.account_id
  join trackable_states s on s.trackable_id = t.id
  ${motion ? `left join (select trackable_id, ${ms("min(earliest)")} as earliest_ms from inbox group by trackable_id) i on i.trackable_id = t.id` : ""}
  where t.id = any($1::uuid[])`;
// Only the rows of trackables with a state row: a round that creates a missing one reads again, and takes them then.
const MOTION_INBOX = `with inbox as (
    delete from motion_inbox m using trackable_states s
    where m.trackable_id = any($1::uuid[]) and s.trackable_id = m.trackable_id returning m.trackable_id, m.earliest
  ) `;
const READS = readsSql(false);
const READS_WITH_MOTION = readsSql(true);
// One row per trackable the round evaluated or whose motion state changed (lib/motion/round.ts hands its states over
// in an evaluation round, so a trackable's row takes one new version per round, not two). The evaluation's columns
// are written when it has a cursor (every update it made has one); motion_state when the states' JSON object ($8, one
// parameter: no array quoting of each state) has the trackable's id (JSON null clears it).
const SAVE_STATES = `update trackable_states s set
    evaluated_timestamp = case when v.ts is not null then v.ts else s.evaluated_timestamp end,
    evaluated_location_id = case when v.ts is not null then v.location_id else s.evaluated_location_id end,
    status = case when v.ts is not null then v.status else s.status end,
    last_seen_at = case when v.ts is not null then v.seen else s.last_seen_at end,
    battery = case when v.ts is not null then v.battery else s.battery end,
    updated_at = case when v.ts is not null then $7::timestamptz else s.updated_at end,
    motion_state = case when v.motion is null then s.motion_state else nullif(v.motion, 'null'::jsonb) end
  from (
    select u.*, m.value as motion
    from unnest($1::uuid[], $2::text[]::timestamptz[], $3::uuid[], $4::text[], $5::text[]::timestamptz[], $6::float8[])
      as u(id, ts, location_id, status, seen, battery)
    left join jsonb_each($8::text::jsonb) as m on m.key = u.id::text
  ) as v
  where s.trackable_id = v.id`;

type MotionColumns = { motion: MotionSettingsInput | null; motionState: unknown; inboxEarliestMs: number | null; newestId: string | null };

/**
 * What motion takes from a round's reads, per trackable with inbox rows (lib/motion/round.ts): its settings and state,
 * the earliest time its rows announce and its newest fix id, and the points read after its cursor as motion's fixes,
 * `complete` when they are all of them (fewer than the read's limit).
 */
export interface MotionReads {
  motion: MotionSettingsInput | null;
  state: MotionState | null;
  earliestMs: number;
  newest: string;
  fixes: Fix[];
  complete: boolean;
}

/** What a round reads of a trackable's state row. */
export type LockedState = Pick<TrackableStateRow, "trackableId" | "status" | "lastSeenAt" | "battery">;
type StateRow = Pick<LockedState, "trackableId" | "status" | "battery"> & { evaluatedMs: number | null; evaluatedLocationId: string | null; lastSeenMs: number | null };
export type Owner = { id: string; name: string; type: string; accountId: string; plan: "free" | "enterprise"; geofencesVersion: number };
type ReadRow = Owner &
  FenceStateJson &
  Partial<MotionColumns> & {
    notificationsVersion: number;
    points: Array<[id: string, latitude: number, longitude: number, accuracy: number | null, battery: number | null, timestampMs: number, receivedMs: number, speed: number | null]> | null;
    endpoints: Array<[id: string, url: string, events: WebhookEvent[], secret: string | null, previousSecret: string | null, previousSecretExpiresMs: number | null]> | null;
  };

/** The columns of a location that evaluation reads. */
export type Point = Pick<LocationRow, "id" | "trackableId" | "latitude" | "longitude" | "accuracy" | "battery" | "timestamp" | "receivedAt">;
/** A point as a round reads it: also motion's fix (its time in epoch ms, and its speed). */
type ReadPoint = Point & Fix;

/** What a round reads under its locks, per trackable (see lockAndRead). */
export interface Locked {
  t: Owner;
  state: LockedState;
  cursor: Cursor | null;
}

export interface LockedReads {
  locked: Locked[];
  endpoints: Endpoint[];
  points: Map<string, ReadPoint[]>;
  fenceRows: FenceStateRows;
  /** With `motion`: the trackables whose motion_inbox rows the read took (and deleted). */
  motion: Map<string, MotionReads>;
  /** The accounts' notifications_version, by account id (the consumers' Prefetched). */
  notificationsVersions: Map<string, number>;
}

/**
 * Locks the trackables' state rows (created when missing) in id order — two rounds sharing trackables lock them in the
 * same order and never deadlock — and reads, in a statement issued right behind the locks (one round trip, run after
 * them, in a snapshot taken once the locks are held): the trackables with their accounts' plan, geofences version and
 * notifications version, the enabled endpoints of their enterprise accounts, up to `limit` points after each one's
 * cursor, and their memberships and pending crossings (READS). A geofence change that locked a trackable's state (a
 * synthetic transition) has committed by the time these reads start, so the cached geofences are never older than
 * what that change left.
 * Deleted trackables are left out.
 */
export async function lockAndRead(tx: Tx, trackableIds: readonly string[], limit: number, opts: { motion?: boolean; createMissing?: boolean } = {}): Promise<LockedReads> {
  const ids = [...trackableIds].sort();
  const [rows, reads] = await Promise.all([queryRows<StateRow>(tx, LOCK_STATES, [ids]), queryRows<ReadRow>(tx, opts.motion ? READS_WITH_MOTION : READS, [ids, limit])]);
  if (rows.length < ids.length && opts.createMissing !== false) {
    // A trackable without its state row (createTrackable makes it; one made before that, or a crash between the two
    // statements): created, then everything locked and read again, once (a deleted trackable stays missing). The
    // inbox rows the first read took stay taken: they are kept with the second read's.
    const have = new Set(rows.map((s) => s.trackableId));
    await createTrackableStates(tx, ids.filter((id) => !have.has(id)));
    const again = await lockAndRead(tx, ids, limit, { ...opts, createMissing: false });
    for (const [id, first] of motionOf(reads, limit, pointsByTrackable(reads))) {
      const second = again.motion.get(id);
      again.motion.set(id, second ? { ...second, earliestMs: Math.min(first.earliestMs, second.earliestMs) } : first);
    }
    return again;
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
  const points = pointsByTrackable(reads);
  const notificationsVersions = new Map(reads.map((r) => [r.accountId, r.notificationsVersion]));
  return { locked, endpoints, points, fenceRows: fenceRowsOf(reads), motion: motionOf(reads, limit, points), notificationsVersions };
}

/**
 * The trackables whose inbox rows a read took, with their points as motion's fixes: the same objects as the
 * evaluation's (each point carries its time and speed too), so a round builds one object a point, not two.
 */
function motionOf(rows: readonly ReadRow[], limit: number, points: ReadonlyMap<string, ReadPoint[]>): Map<string, MotionReads> {
  const out = new Map<string, MotionReads>();
  for (const row of rows) {
    if (row.inboxEarliestMs == null || row.newestId == null) continue;
    const fixes = points.get(row.id) ?? [];
    out.set(row.id, {
      motion: row.motion ?? null,
      state: decodeMotionState(row.motionState ?? null),
      earliestMs: row.inboxEarliestMs,
      newest: row.newestId,
      fixes,
      complete: fixes.length < limit,
    });
  }
  return out;
}

/**
 * The evaluation state rows of these trackables, where missing (createTrackable makes a new trackable's; a round makes
 * any that is still missing before it locks them). One statement, in id order.
 */
export function createTrackableStates(db: Executor, trackableIds: readonly string[]): Promise<unknown> {
  return queryRows(db, CREATE_STATES, [[...trackableIds].sort()]);
}

/** Each trackable's points, in evaluation order (as READS lists them): trackables with none are left out. */
function pointsByTrackable(rows: readonly ReadRow[]): Map<string, ReadPoint[]> {
  const byTrackable = new Map<string, ReadPoint[]>();
  for (const row of rows) {
    if (!row.points) continue;
    byTrackable.set(
      row.id,
      row.points.map(([id, latitude, longitude, accuracy, battery, timestampMs, receivedMs, speed]) => ({
        id,
        trackableId: row.id,
        latitude,
        longitude,
        accuracy,
        battery,
        timestamp: new Date(timestampMs),
        receivedAt: new Date(receivedMs),
        time: timestampMs,
        speed,
      })),
    );
  }
  return byTrackable;
}

/**
 * Moves the cursor past the next point without evaluating it (no event, no change of membership or status) and logs
 * why. False when there was no point to skip (the failure was not about a point).
 */
export async function skipNextPoint(trackableId: string, cause: unknown): Promise<boolean> {
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
  log.error(
    `[geofences] skipped location ${skipped.id} of trackable ${trackableId} (${skipped.timestamp.toISOString()}): ` +
      `its evaluation failed on every try (${reason}); it emits no event, and the trackable's later locations are evaluated`,
  );
  return true;
}

/** What a round writes to a trackable's state row besides its fence state. */
export interface StateUpdate {
  trackableId: string;
  last: Cursor;
  status: "online" | "offline" | null;
  lastSeenAt: Date;
  battery: number | null;
}

/**
 * The state rows of a round, in one statement (issued, not awaited): the evaluation's updates, and the motion states
 * the round's motion handed over (by trackable id; null clears one).
 */
export function saveStates(tx: Tx, updates: readonly StateUpdate[], motionStates: ReadonlyMap<string, unknown> = new Map()): Promise<unknown> {
  const evaluated = new Set(updates.map((u) => u.trackableId));
  const motionOnly = [...motionStates.keys()].filter((id) => !evaluated.has(id));
  if (updates.length === 0 && motionOnly.length === 0) return Promise.resolve();
  const column = <T>(pick: (u: StateUpdate) => T) => [...updates.map(pick), ...motionOnly.map(() => null)];
  return queryRows(tx, SAVE_STATES, [
    [...updates.map((u) => u.trackableId), ...motionOnly],
    column((u) => u.last.timestamp.toISOString()),
    column((u) => u.last.id),
    column((u) => u.status),
    column((u) => u.lastSeenAt.toISOString()),
    column((u) => u.battery),
    new Date().toISOString(),
    JSON.stringify(Object.fromEntries(motionStates)),
  ]);
}
