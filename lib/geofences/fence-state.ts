import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { geofenceMemberships, geofencePendingCrossings } from "@/lib/db/schema";
import { inChunks, rowsPerInsert } from "@/lib/db/chunks";
import { loadShapes, type FenceCandidate } from "./candidates";
import { NO_MEMORY, type FenceMemory, type Fix, type Transition } from "./evaluation";

// The per-(trackable, geofence) state evaluation carries between batches: memberships (inside, since when, dwelt)
// and pending crossings (debounce). Read and written inside the evaluation's transaction, under the trackable's lock.

export interface FenceState {
  inside: Set<string>;
  memory: Map<string, FenceMemory>;
  /** The geofences of `inside` and `memory`, all still applying to the trackable. */
  shapes: Map<string, FenceCandidate>;
}

/**
 * The trackable's state. Memberships and pending crossings of geofences that no longer apply (unassigned) are dropped
 * here without an event: the unassignment itself recorded it.
 */
export async function loadFenceState(
  tx: Tx,
  input: { accountId: string; trackableId: string },
  /** The shapes of these geofence ids that still apply (evaluation passes its in-memory ones); by default a query. */
  shapesOf?: (geofenceIds: string[]) => Map<string, FenceCandidate>,
): Promise<FenceState> {
  const { trackableId } = input;
  const members = await tx
    .select({ id: geofenceMemberships.geofenceId, enteredAt: geofenceMemberships.enteredAt, dwelt: geofenceMemberships.dwelt })
    .from(geofenceMemberships)
    .where(eq(geofenceMemberships.trackableId, trackableId));
  const pending = await tx.select().from(geofencePendingCrossings).where(eq(geofencePendingCrossings.trackableId, trackableId));
  const ids = [...new Set([...members.map((m) => m.id), ...pending.map((p) => p.geofenceId)])];
  const shapes = shapesOf ? shapesOf(ids) : await loadShapes(tx, { accountId: input.accountId, trackableId, geofenceIds: ids });
  const dropped = ids.filter((id) => !shapes.has(id));
  if (dropped.length > 0) {
    await tx.delete(geofenceMemberships).where(and(eq(geofenceMemberships.trackableId, trackableId), inArray(geofenceMemberships.geofenceId, dropped)));
    await tx
      .delete(geofencePendingCrossings)
      .where(and(eq(geofencePendingCrossings.trackableId, trackableId), inArray(geofencePendingCrossings.geofenceId, dropped)));
  }
  const inside = new Set(members.filter((m) => shapes.has(m.id)).map((m) => m.id));
  const memory = new Map<string, FenceMemory>();
  for (const m of members) if (shapes.has(m.id)) memory.set(m.id, { enteredAt: m.enteredAt, dwelt: m.dwelt, pending: null });
  for (const p of pending) {
    if (!shapes.has(p.geofenceId)) continue;
    const fix: Fix = { id: p.locationId, timestamp: p.timestamp, latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy };
    memory.set(p.geofenceId, { ...(memory.get(p.geofenceId) ?? NO_MEMORY), pending: fix });
  }
  return { inside, memory, shapes };
}

/** Writes the net change from `before` to `after`: memberships entered, left or dwelt in, and the pending crossings. */
export async function saveFenceState(
  tx: Tx,
  trackableId: string,
  before: Pick<FenceState, "inside" | "memory">,
  after: Pick<FenceState, "inside" | "memory">,
  transitions: readonly Transition<Fix>[],
): Promise<void> {
  const exited = [...before.inside].filter((id) => !after.inside.has(id));
  if (exited.length > 0) {
    await tx.delete(geofenceMemberships).where(and(eq(geofenceMemberships.trackableId, trackableId), inArray(geofenceMemberships.geofenceId, exited)));
  }
  // A visit begun in this batch (possibly after leaving an earlier one) replaces the row; a dwell marks it.
  const enteredAt = new Map<string, Fix>();
  for (const tr of transitions) if (tr.kind === "entry") enteredAt.set(tr.geofenceId, tr.at ?? tr.point);
  const rows = [...after.inside].flatMap((geofenceId) => {
    const m = after.memory.get(geofenceId) ?? NO_MEMORY;
    const entry = enteredAt.get(geofenceId);
    if (entry) return [{ trackableId, geofenceId, locationId: entry.id, enteredAt: entry.timestamp, dwelt: m.dwelt }];
    return [];
  });
  await inChunks(rows, rowsPerInsert(geofenceMemberships), async (chunk) => {
    await tx
      .insert(geofenceMemberships)
      .values(chunk)
      .onConflictDoUpdate({
        target: [geofenceMemberships.trackableId, geofenceMemberships.geofenceId],
        set: { locationId: sql`excluded.location_id`, enteredAt: sql`excluded.entered_at`, dwelt: sql`excluded.dwelt` },
      });
  });
  const dwelt = [...after.inside].filter((id) => !enteredAt.has(id) && after.memory.get(id)?.dwelt && !before.memory.get(id)?.dwelt);
  if (dwelt.length > 0) {
    await tx
      .update(geofenceMemberships)
      .set({ dwelt: true })
      .where(and(eq(geofenceMemberships.trackableId, trackableId), inArray(geofenceMemberships.geofenceId, dwelt)));
  }

  const pendingBefore = [...before.memory].filter(([, m]) => m.pending);
  const pendingAfter = [...after.memory].filter(([, m]) => m.pending);
  if (pendingBefore.length > 0) await tx.delete(geofencePendingCrossings).where(eq(geofencePendingCrossings.trackableId, trackableId));
  const pendingRows = pendingAfter.map(([geofenceId, m]) => ({
        trackableId,
        geofenceId,
        locationId: m.pending!.id,
        timestamp: m.pending!.timestamp,
        latitude: m.pending!.latitude,
        longitude: m.pending!.longitude,
        accuracy: m.pending!.accuracy ?? null,
  }));
  await inChunks(pendingRows, rowsPerInsert(geofencePendingCrossings), async (chunk) => {
    await tx.insert(geofencePendingCrossings).values(chunk);
  });
}
