import type { Tx } from "@/lib/db/client";
import { geofenceMemberships, geofencePendingCrossings } from "@/lib/db/schema";
import { insertUnnested } from "@/lib/db/bulk";
import { epochMs as ms, queryRows } from "@/lib/db/rows";
import type { FenceCandidate } from "./candidates";
import { NO_MEMORY, type FenceMemory, type Fix, type Transition } from "./evaluation";

// The per-(trackable, geofence) state evaluation carries between rounds: memberships (inside, since when, dwelt) and
// pending crossings (debounce). Read and written inside the evaluation's transaction, under the trackables' locks, for
// every trackable of the round at once: read within the round's one read statement (the JSON columns below), written
// by at most five statements whatever their number, none of them waiting for another.

export interface FenceState {
  inside: Set<string>;
  memory: Map<string, FenceMemory>;
  /** The geofences of `inside` and `memory`, all still applying to the trackable. */
  shapes: Map<string, FenceCandidate>;
}

const EMPTY = (): FenceState => ({ inside: new Set(), memory: new Map(), shapes: new Map() });

/**
 * A trackable's memberships and pending crossings as two JSON columns, `members` and `pending` (arrays of tuples, or
 * null when there are none), for a select whose rows have the trackable's id as `trackableIdColumn`: the evaluation
 * reads them in the same statement as the rest of what a round reads. fenceRowsOf turns them back into rows.
 */
export const fenceStateColumns = (trackableIdColumn: string) => `
    (select json_agg(json_build_array(m.geofence_id, ${ms("m.entered_at")}, m.dwelt))
      from geofence_memberships m where m.trackable_id = ${trackableIdColumn}) as members,
    (select json_agg(json_build_array(p.geofence_id, p.location_id, ${ms("p.timestamp")}, p.latitude, p.longitude, p.accuracy))
      from geofence_pending_crossings p where p.trackable_id = ${trackableIdColumn}) as pending`;

/** The columns fenceStateColumns adds to a row. */
export interface FenceStateJson {
  members: Array<[geofenceId: string, enteredMs: number, dwelt: boolean]> | null;
  pending: Array<[geofenceId: string, locationId: string, timestampMs: number, latitude: number, longitude: number, accuracy: number | null]> | null;
}

/** The state rows of trackables, from their rows' fenceStateColumns. */
export function fenceRowsOf(rows: ReadonlyArray<FenceStateJson & { id: string }>): FenceStateRows {
  const members: MemberRow[] = [];
  const pending: PendingRow[] = [];
  for (const row of rows) {
    for (const [geofenceId, enteredMs, dwelt] of row.members ?? []) members.push({ trackableId: row.id, geofenceId, enteredMs, dwelt });
    for (const [geofenceId, locationId, timestampMs, latitude, longitude, accuracy] of row.pending ?? []) {
      pending.push({ trackableId: row.id, geofenceId, locationId, timestampMs, latitude, longitude, accuracy });
    }
  }
  return [members, pending];
}

// The writes, as fixed SQL text with the pairs or the trackables as uuid[] parameters: prepared once per connection,
// and issued without waiting for one another (lib/db/rows.ts), so they go out in one round trip with the round's
// other writes.
const PAIRS = `(trackable_id, geofence_id) in (select * from unnest($1::uuid[], $2::uuid[]))`;
const DELETE_MEMBERS = `delete from geofence_memberships where ${PAIRS}`;
const DELETE_PENDING = `delete from geofence_pending_crossings where ${PAIRS}`;
const MARK_DWELT = `update geofence_memberships set dwelt = true where ${PAIRS}`;
const CLEAR_PENDING = `delete from geofence_pending_crossings where trackable_id = any($1::uuid[])`;

type MemberRow = { trackableId: string; geofenceId: string; enteredMs: number; dwelt: boolean };
type PendingRow = { trackableId: string; geofenceId: string; locationId: string; timestampMs: number; latitude: number; longitude: number; accuracy: number | null };

/** The stored state rows of some trackables (fenceRowsOf). */
export type FenceStateRows = [MemberRow[], PendingRow[]];

const pairColumns = (pairs: ReadonlyArray<readonly [string, string]>) => [pairs.map(([t]) => t), pairs.map(([, g]) => g)];

/**
 * Each trackable's state, by trackable id, from the rows read (fenceRowsOf). `shapesOf(trackableId, geofenceIds)`
 * gives the shapes of those geofences that still apply to the trackable; memberships and pending crossings of the
 * others (deleted or unassigned) are dropped without an event (the deletion or unassignment recorded it): their
 * deletes are issued here and returned to be awaited with the round's writes.
 */
export function fenceStatesOf(
  tx: Tx,
  trackableIds: readonly string[],
  [members, pending]: FenceStateRows,
  shapesOf: (trackableId: string, geofenceIds: string[]) => Map<string, FenceCandidate>,
): { states: Map<string, FenceState>; writes: Array<Promise<unknown>> } {
  const states = new Map<string, FenceState>();
  const fenceIds = new Map<string, Set<string>>(trackableIds.map((id) => [id, new Set()]));
  for (const r of [...members, ...pending]) fenceIds.get(r.trackableId)?.add(r.geofenceId);
  const dropped: Array<[string, string]> = [];
  for (const [trackableId, set] of fenceIds) {
    const state = EMPTY();
    if (set.size > 0) {
      state.shapes = shapesOf(trackableId, [...set]);
      for (const g of set) if (!state.shapes.has(g)) dropped.push([trackableId, g]);
    }
    states.set(trackableId, state);
  }
  for (const m of members) {
    const state = states.get(m.trackableId);
    if (!state?.shapes.has(m.geofenceId)) continue;
    state.inside.add(m.geofenceId);
    state.memory.set(m.geofenceId, { enteredAt: new Date(m.enteredMs), dwelt: m.dwelt, pending: null });
  }
  for (const p of pending) {
    const state = states.get(p.trackableId);
    if (!state?.shapes.has(p.geofenceId)) continue;
    const fix: Fix = { id: p.locationId, timestamp: new Date(p.timestampMs), latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy };
    state.memory.set(p.geofenceId, { ...(state.memory.get(p.geofenceId) ?? NO_MEMORY), pending: fix });
  }
  const writes: Array<Promise<unknown>> = [];
  if (dropped.length > 0) {
    writes.push(queryRows(tx, DELETE_MEMBERS, pairColumns(dropped)), queryRows(tx, DELETE_PENDING, pairColumns(dropped)));
  }
  return { states, writes };
}

/** What one trackable's evaluation changed: its state before and after, and the transitions in between. */
export interface FenceStateChange {
  trackableId: string;
  before: Pick<FenceState, "inside" | "memory">;
  after: Pick<FenceState, "inside" | "memory">;
  transitions: readonly Transition<Fix>[];
}

/**
 * Issues the writes of the net changes — memberships entered, left or dwelt in, and the pending crossings — of every
 * trackable, one statement per kind of change (none when nothing of that kind changed), without waiting: the caller
 * awaits them with the rest of its writes.
 */
export function saveFenceStates(tx: Tx, changes: readonly FenceStateChange[]): Array<Promise<unknown>> {
  const exited: Array<[string, string]> = [];
  const dwelt: Array<[string, string]> = [];
  const entered: Array<typeof geofenceMemberships.$inferInsert> = [];
  const clearPending: string[] = [];
  const pendingRows: Array<typeof geofencePendingCrossings.$inferInsert> = [];
  for (const { trackableId, before, after, transitions } of changes) {
    for (const id of before.inside) if (!after.inside.has(id)) exited.push([trackableId, id]);
    // A visit begun in this round (possibly after leaving an earlier one) replaces the row; a dwell marks it.
    const enteredAt = new Map<string, Fix>();
    for (const tr of transitions) if (tr.kind === "entry") enteredAt.set(tr.geofenceId, tr.at ?? tr.point);
    for (const geofenceId of after.inside) {
      const m = after.memory.get(geofenceId) ?? NO_MEMORY;
      const entry = enteredAt.get(geofenceId);
      if (entry) entered.push({ trackableId, geofenceId, locationId: entry.id, enteredAt: entry.timestamp, dwelt: m.dwelt });
      else if (m.dwelt && !before.memory.get(geofenceId)?.dwelt) dwelt.push([trackableId, geofenceId]);
    }
    if ([...before.memory.values()].some((m) => m.pending)) clearPending.push(trackableId);
    for (const [geofenceId, m] of after.memory) {
      if (!m.pending) continue;
      pendingRows.push({
        trackableId,
        geofenceId,
        locationId: m.pending.id,
        timestamp: m.pending.timestamp,
        latitude: m.pending.latitude,
        longitude: m.pending.longitude,
        accuracy: m.pending.accuracy ?? null,
      });
    }
  }

  // Issued in this order without waiting (the pending crossings are cleared before the new ones go in).
  const writes: Array<Promise<unknown>> = [];
  if (exited.length > 0) writes.push(queryRows(tx, DELETE_MEMBERS, pairColumns(exited)));
  writes.push(
    insertUnnested(tx, geofenceMemberships, entered, {
      onConflict:
        "on conflict (trackable_id, geofence_id) do update set location_id = excluded.location_id, entered_at = excluded.entered_at, dwelt = excluded.dwelt",
    }),
  );
  if (dwelt.length > 0) writes.push(queryRows(tx, MARK_DWELT, pairColumns(dwelt)));
  if (clearPending.length > 0) writes.push(queryRows(tx, CLEAR_PENDING, [clearPending]));
  writes.push(insertUnnested(tx, geofencePendingCrossings, pendingRows));
  return writes;
}
