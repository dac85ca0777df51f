import { and, eq, inArray } from "drizzle-orm";
import type { AccountRef } from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { geofenceMemberships, geofencePendingCrossings, geofences, locations, trackableStates, trackables, type GeofenceRow } from "@/lib/db/schema";
import type { EventReason } from "@/lib/db/schema/events";
import { beaconOf, geofenceEventPayload, locationOf } from "@/lib/events/payloads";
import type { ProducedEvent } from "@/lib/events/produced";
import { recordEvents, type Recording } from "@/lib/events/record";
import { wholeSeconds } from "@/lib/events/time";
import { contains, metresOutsideFence } from "./evaluation";

// Synthetic transitions: a trackable inside a geofence leaves it (or, on a reshape, enters it) at the moment of a
// change to the geofence or the trackable, not because of a location. Recorded and delivered like any other event
// (lib/events), to the geofence's webhook as configured at that moment; the payload carries one more field, `reason`.
// Each verb returns its Recording, for the caller to hand to eventsCommitted after its commit.

type Reason = Extract<EventReason, "geofence_deleted" | "unassigned" | "trackable_deleted" | "geofence_changed">;

interface Change {
  trackableId: string;
  kind: "entry" | "exit";
}

/** Locks the state rows of these trackables (as evaluation does), so no evaluation of theirs runs meanwhile. */
async function lockTrackables(tx: Tx, trackableIds: string[]) {
  if (trackableIds.length === 0) return;
  await tx.select({ id: trackableStates.trackableId }).from(trackableStates).where(inArray(trackableStates.trackableId, trackableIds)).orderBy(trackableStates.trackableId).for("update");
}

/**
 * The events of the changes for one geofence (its row as it is at this moment); updates the memberships to match and
 * drops pending crossings.
 */
async function transitionsOf(tx: Tx, fence: GeofenceRow, changes: Change[], reason: Reason, now: Date): Promise<ProducedEvent[]> {
  if (changes.length === 0) return [];
  const ids = changes.map((c) => c.trackableId);
  const rows = await tx
    .select({ trackable: { id: trackables.id, name: trackables.name, type: trackables.type }, location: locations })
    .from(trackables)
    .leftJoin(trackableStates, eq(trackableStates.trackableId, trackables.id))
    .leftJoin(locations, eq(locations.id, trackableStates.evaluatedLocationId))
    .where(inArray(trackables.id, ids));
  const byId = new Map(rows.map((r) => [r.trackable.id, r]));
  const members = await tx
    .select({ trackableId: geofenceMemberships.trackableId, enteredAt: geofenceMemberships.enteredAt })
    .from(geofenceMemberships)
    .where(and(eq(geofenceMemberships.geofenceId, fence.id), inArray(geofenceMemberships.trackableId, ids)));
  const enteredAt = new Map(members.map((m) => [m.trackableId, m.enteredAt]));

  const produced: ProducedEvent[] = [];
  const entries: { trackableId: string; geofenceId: string; locationId: string; enteredAt: Date }[] = [];
  for (const change of changes) {
    const row = byId.get(change.trackableId);
    if (!row) continue;
    const location = row.location ? locationOf(row.location) : null;
    const type = change.kind === "entry" ? "geofence.entry" : "geofence.exit";
    const since = enteredAt.get(change.trackableId);
    produced.push({
      type,
      trackableId: change.trackableId,
      geofenceId: fence.id,
      occurredAt: now,
      location,
      reason,
      durationSeconds: change.kind === "exit" && since ? wholeSeconds(since, now) : null,
      confidence: null,
      // Without an evaluated location there is no payload to send: the event is recorded only.
      payload: location ? { ...geofenceEventPayload(type, fence, beaconOf(row.trackable), location), occurred_at: now.toISOString(), reason } : null,
      geofence: { id: fence.id, notificationType: fence.notificationType, webhookUrl: fence.webhookUrl, webhookSecret: fence.webhookSecret },
    });
    if (change.kind === "entry" && row.location) {
      entries.push({ trackableId: change.trackableId, geofenceId: fence.id, locationId: row.location.id, enteredAt: now });
    }
  }
  const exits = changes.filter((c) => c.kind === "exit").map((c) => c.trackableId);
  if (exits.length > 0) {
    await tx.delete(geofenceMemberships).where(and(eq(geofenceMemberships.geofenceId, fence.id), inArray(geofenceMemberships.trackableId, exits)));
  }
  if (entries.length > 0) await tx.insert(geofenceMemberships).values(entries).onConflictDoNothing();
  await tx.delete(geofencePendingCrossings).where(and(eq(geofencePendingCrossings.geofenceId, fence.id), inArray(geofencePendingCrossings.trackableId, ids)));
  return produced;
}

/** The trackables inside a geofence now (optionally only some of them). */
async function insideOf(tx: Tx, geofenceId: string): Promise<string[]> {
  const rows = await tx.select({ id: geofenceMemberships.trackableId }).from(geofenceMemberships).where(eq(geofenceMemberships.geofenceId, geofenceId));
  return rows.map((r) => r.id);
}

/** Before a geofence is deleted: every trackable inside it exits (`geofence_deleted`). */
export async function exitAllOnDelete(tx: Tx, account: AccountRef, fence: GeofenceRow, now = new Date()): Promise<Recording> {
  const inside = await insideOf(tx, fence.id);
  await lockTrackables(tx, inside);
  return recordEvents(tx, account, await transitionsOf(tx, fence, inside.map((trackableId) => ({ trackableId, kind: "exit" })), "geofence_deleted", now));
}

/** After a geofence's assignment changed: the trackables inside it that it no longer applies to exit (`unassigned`). */
export async function exitUnassigned(tx: Tx, account: AccountRef, fence: GeofenceRow, assigned: string[] | null, now = new Date()): Promise<Recording> {
  if (assigned === null) return recordEvents(tx, account, []);
  const keep = new Set(assigned);
  const leaving = (await insideOf(tx, fence.id)).filter((id) => !keep.has(id));
  await lockTrackables(tx, leaving);
  return recordEvents(tx, account, await transitionsOf(tx, fence, leaving.map((trackableId) => ({ trackableId, kind: "exit" })), "unassigned", now));
}

/** Before a trackable is deleted: it exits every geofence it is inside (`trackable_deleted`). */
export async function exitAllOnTrackableDelete(tx: Tx, account: AccountRef, trackableId: string, now = new Date()): Promise<Recording> {
  await lockTrackables(tx, [trackableId]);
  const fences = await tx
    .select({ fence: geofences })
    .from(geofenceMemberships)
    .innerJoin(geofences, eq(geofences.id, geofenceMemberships.geofenceId))
    .where(eq(geofenceMemberships.trackableId, trackableId));
  const produced: ProducedEvent[] = [];
  for (const { fence } of fences) produced.push(...(await transitionsOf(tx, fence, [{ trackableId, kind: "exit" }], "trackable_deleted", now)));
  return recordEvents(tx, account, produced);
}

/**
 * After a geofence's shape, position or size changed (`fence` is the new row): each trackable it applies to is
 * decided again at its last evaluated location. Inside ones now outside (beyond the exit buffer) exit; outside ones now
 * inside enter; both with `geofence_changed`.
 */
export async function reevaluateOnReshape(tx: Tx, account: AccountRef, fence: GeofenceRow, applies: (trackableId: string) => boolean, now = new Date()): Promise<Recording> {
  const states = await tx
    .select({ trackableId: trackableStates.trackableId, latitude: locations.latitude, longitude: locations.longitude })
    .from(trackableStates)
    .innerJoin(locations, eq(locations.id, trackableStates.evaluatedLocationId))
    .where(eq(trackableStates.accountId, account.id));
  const inside = new Set(await insideOf(tx, fence.id));
  const changes: Change[] = [];
  for (const s of states) {
    if (!applies(s.trackableId)) continue;
    if (inside.has(s.trackableId)) {
      if (metresOutsideFence(fence, s) > fence.exitBuffer) changes.push({ trackableId: s.trackableId, kind: "exit" });
    } else if (contains(fence, s)) {
      changes.push({ trackableId: s.trackableId, kind: "entry" });
    }
  }
  await lockTrackables(tx, changes.map((c) => c.trackableId));
  return recordEvents(tx, account, await transitionsOf(tx, fence, changes, "geofence_changed", now));
}
