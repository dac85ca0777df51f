import type { SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { geofenceMemberships, geofencePendingCrossings } from "@/lib/db/schema";
import { insertUnnested, uuidIn, uuidPairsIn } from "@/lib/db/bulk";
import type { FenceCandidate } from "./candidates";
import { NO_MEMORY, type FenceMemory, type Fix, type Transition } from "./evaluation";

// The per-(trackable, geofence) state evaluation carries between rounds: memberships (inside, since when, dwelt) and
// pending crossings (debounce). Read and written inside the evaluation's transaction, under the trackables' locks, for
// every trackable of the round at once: two queries to read, at most five statements to write, whatever their number.

export interface FenceState {
  inside: Set<string>;
  memory: Map<string, FenceMemory>;
  /** The geofences of `inside` and `memory`, all still applying to the trackable. */
  shapes: Map<string, FenceCandidate>;
}

const EMPTY = (): FenceState => ({ inside: new Set(), memory: new Map(), shapes: new Map() });

/** `(trackable_id, geofence_id) in (the pairs)`. */
const pairIn = (table: typeof geofenceMemberships | typeof geofencePendingCrossings, pairs: ReadonlyArray<readonly [string, string]>): SQL =>
  uuidPairsIn(table.trackableId, table.geofenceId, pairs);

/**
 * Each trackable's state, by trackable id. `shapesOf(trackableId, geofenceIds)` gives the shapes of those geofences
 * that still apply to the trackable; memberships and pending crossings of the others (deleted or unassigned) are
 * dropped here without an event: the deletion or unassignment recorded it.
 */
export async function loadFenceStates(
  tx: Tx,
  trackableIds: readonly string[],
  shapesOf: (trackableId: string, geofenceIds: string[]) => Map<string, FenceCandidate>,
): Promise<Map<string, FenceState>> {
  const states = new Map<string, FenceState>();
  if (trackableIds.length === 0) return states;
  const ids = [...trackableIds];
  const members = await tx
    .select({
      trackableId: geofenceMemberships.trackableId,
      geofenceId: geofenceMemberships.geofenceId,
      enteredAt: geofenceMemberships.enteredAt,
      dwelt: geofenceMemberships.dwelt,
    })
    .from(geofenceMemberships)
    .where(uuidIn(geofenceMemberships.trackableId, ids));
  const pending = await tx.select().from(geofencePendingCrossings).where(uuidIn(geofencePendingCrossings.trackableId, ids));

  const fenceIds = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
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
    const state = states.get(m.trackableId)!;
    if (!state.shapes.has(m.geofenceId)) continue;
    state.inside.add(m.geofenceId);
    state.memory.set(m.geofenceId, { enteredAt: m.enteredAt, dwelt: m.dwelt, pending: null });
  }
  for (const p of pending) {
    const state = states.get(p.trackableId)!;
    if (!state.shapes.has(p.geofenceId)) continue;
    const fix: Fix = { id: p.locationId, timestamp: p.timestamp, latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy };
    state.memory.set(p.geofenceId, { ...(state.memory.get(p.geofenceId) ?? NO_MEMORY), pending: fix });
  }
  if (dropped.length > 0) {
    await tx.delete(geofenceMemberships).where(pairIn(geofenceMemberships, dropped));
    await tx.delete(geofencePendingCrossings).where(pairIn(geofencePendingCrossings, dropped));
  }
  return states;
}

/** What one trackable's evaluation changed: its state before and after, and the transitions in between. */
export interface FenceStateChange {
  trackableId: string;
  before: Pick<FenceState, "inside" | "memory">;
  after: Pick<FenceState, "inside" | "memory">;
  transitions: readonly Transition<Fix>[];
}

/**
 * Writes the net changes: memberships entered, left or dwelt in, and the pending crossings, of every trackable in one
 * statement per kind of change (none when nothing of that kind changed).
 */
export async function saveFenceStates(tx: Tx, changes: readonly FenceStateChange[]): Promise<void> {
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

  if (exited.length > 0) await tx.delete(geofenceMemberships).where(pairIn(geofenceMemberships, exited));
  await insertUnnested(tx, geofenceMemberships, entered, {
    onConflict:
      "on conflict (trackable_id, geofence_id) do update set location_id = excluded.location_id, entered_at = excluded.entered_at, dwelt = excluded.dwelt",
  });
  if (dwelt.length > 0) await tx.update(geofenceMemberships).set({ dwelt: true }).where(pairIn(geofenceMemberships, dwelt));
  if (clearPending.length > 0) await tx.delete(geofencePendingCrossings).where(uuidIn(geofencePendingCrossings.trackableId, clearPending));
  await insertUnnested(tx, geofencePendingCrossings, pendingRows);
}
