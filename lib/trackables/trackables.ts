import { and, desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import { audit } from "@/lib/audit/audit";
import { omit } from "@/lib/audit/changes";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { locations, trackables, type LocationRow, type TrackableRow } from "@/lib/db/schema";
import { createTrackableStates } from "@/lib/geofences/round-state";
import { eventsCommitted } from "@/lib/events/record";
import { exitAllOnTrackableDelete } from "@/lib/geofences/synthetic";
import { notFound } from "@/lib/http/errors";
import { publishNotice } from "@/lib/stream/bus";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { serializeLocation } from "@/lib/locations/serialize";
import { motionSettings } from "@/lib/motion/segment";
import { z } from "zod";
import type { CreateTrackableInput, Trackable, UpdateTrackableInput } from "./schemas";

export function serializeTrackable(row: TrackableRow, last: LocationRow | null): Trackable {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    metadata: row.metadata,
    tracking: row.tracking,
    lastLocation: last ? serializeLocation(last) : null,
    motion: motionSettings(row.motion),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// The newest location of each selected trackable: one backward index probe per row (locations_trackable_ts_idx).
// Join it with `.leftJoinLateral(last.subquery, sql\`true\`)` and select `last.columns`.
export function lastLocationLateral(ctx: Ctx) {
  const subquery = exec(ctx)
    .select()
    .from(locations)
    .where(eq(locations.trackableId, trackables.id))
    .orderBy(desc(locations.timestamp), desc(locations.id))
    .limit(1)
    .as("last_location");
  const columns = {
    id: subquery.id,
    trackableId: subquery.trackableId,
    latitude: subquery.latitude,
    longitude: subquery.longitude,
    accuracy: subquery.accuracy,
    altitude: subquery.altitude,
    speed: subquery.speed,
    heading: subquery.heading,
    battery: subquery.battery,
    timestamp: subquery.timestamp,
    receivedAt: subquery.receivedAt,
    source: subquery.source,
  };
  return { subquery, columns };
}

async function selectWithLast(ctx: Ctx, where: ReturnType<typeof and>, limit: number) {
  const last = lastLocationLateral(ctx);
  const rows = await exec(ctx)
    .select({ trackable: getTableColumns(trackables), last: last.columns })
    .from(trackables)
    .leftJoinLateral(last.subquery, sql`true`)
    .where(where)
    .orderBy(desc(trackables.id))
    .limit(limit);
  return rows.map((r) => serializeTrackable(r.trackable, r.last));
}

/** What the audit log compares of a trackable: its settings, not where it last was. */
const auditedTrackable = (trackable: Trackable) => omit(trackable, "lastLocation");

/** The account's trackable row, or 404 (another account's trackable is indistinguishable from a missing one). */
export async function requireTrackable(ctx: Ctx, id: string): Promise<TrackableRow> {
  const [row] = await exec(ctx)
    .select()
    .from(trackables)
    .where(and(eq(trackables.id, id), eq(trackables.accountId, ctx.account.id)))
    .limit(1);
  if (!row) throw notFound("Trackable", id);
  return row;
}

/**
 * Inserts the trackable, then its evaluation state row, so that its first location's evaluation finds the row to
 * lock. (Evaluation creates a missing one itself, at the cost of a second round trip and its reads again: a crash
 * between the two statements loses nothing.)
 */
export async function createTrackable({ ctx, input }: { ctx: Ctx; input: CreateTrackableInput }): Promise<Trackable> {
  const created = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx
      .insert(trackables)
      .values({ accountId: ctx.account.id, name: input.name, type: input.type, metadata: input.metadata, motion: input.motion ?? null })
      .returning();
    await createTrackableStates(tx.tx, [row!.id]);
    const trackable = serializeTrackable(row!, null);
    await audit(tx, { action: "trackable.created", objectType: "trackable", objectId: row!.id, after: auditedTrackable(trackable) });
    return trackable;
  });
  publishNotice(ctx.account.id, "trackable", created.id);
  return created;
}

const TrackableCursor = z.object({ id: z.uuid() });

export async function listTrackables({ ctx, query }: { ctx: Ctx; query: { limit: number; cursor?: string } }) {
  const after = query.cursor ? decodeCursor(query.cursor, TrackableCursor) : null;
  const rows = await selectWithLast(
    ctx,
    and(eq(trackables.accountId, ctx.account.id), after ? lt(trackables.id, after.id) : undefined),
    query.limit + 1,
  );
  const { page, nextCursor } = paginate(rows, query.limit, (t) => ({ id: t.id }));
  return { data: page, nextCursor };
}

export async function getTrackable({ ctx, id }: { ctx: Ctx; id: string }): Promise<Trackable> {
  const [row] = await selectWithLast(ctx, and(eq(trackables.id, id), eq(trackables.accountId, ctx.account.id)), 1);
  if (!row) throw notFound("Trackable", id);
  return row;
}

export async function updateTrackable({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateTrackableInput }) {
  const updated = await withTransaction(ctx, async (tx) => {
    const before = await getTrackable({ ctx: tx, id });
    const [row] = await tx.tx
      .update(trackables)
      .set({
        ...input,
        // Only the settings given change: merged into the stored ones (the rest keep their values or defaults).
        motion: input.motion ? sql`coalesce(${trackables.motion}, '{}'::jsonb) || ${JSON.stringify(input.motion)}::jsonb` : undefined,
        updatedAt: new Date(),
      })
      .where(and(eq(trackables.id, id), eq(trackables.accountId, ctx.account.id)))
      .returning({ id: trackables.id });
    if (!row) throw notFound("Trackable", id);
    const after = await getTrackable({ ctx: tx, id });
    await audit(tx, { action: "trackable.updated", objectType: "trackable", objectId: id, before: auditedTrackable(before), after: auditedTrackable(after) });
    return after;
  });
  publishNotice(ctx.account.id, "trackable", updated.id);
  return updated;
}

/** Deletes the trackable with its location history and geofence assignments. */
export async function deleteTrackable({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  const recording = await withTransaction(ctx, async (tx) => {
    const [owned] = await exec(tx)
      .select({ id: trackables.id })
      .from(trackables)
      .where(and(eq(trackables.id, id), eq(trackables.accountId, ctx.account.id)));
    if (!owned) throw notFound("Trackable", id);
    // It leaves every geofence it is inside first (reason trackable_deleted), while its last location still exists.
    const sent = await exitAllOnTrackableDelete(tx.tx, tx.account, id);
    const rows = await exec(tx)
      .delete(trackables)
      .where(and(eq(trackables.id, id), eq(trackables.accountId, ctx.account.id)))
      .returning();
    if (rows.length === 0) throw notFound("Trackable", id);
    await audit(tx, { action: "trackable.deleted", objectType: "trackable", objectId: id, before: auditedTrackable(serializeTrackable(rows[0]!, null)) });
    return sent;
  });
  eventsCommitted(recording);
  publishNotice(ctx.account.id, "trackable", id.toLowerCase());
}
