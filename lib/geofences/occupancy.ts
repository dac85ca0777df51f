import { and, count, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
import { geofenceMemberships, geofences, trackables } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate, olderThan } from "@/lib/http/pagination";
import type { OccupancyQuery, Occupant, TrackableGeofence } from "./schemas";

// Who is inside which geofence now: the membership rows evaluation keeps (a row per trackable inside a geofence).

/** How many trackables are inside each of these geofences. */
export async function occupantCounts(ctx: Ctx, geofenceIds: readonly string[]): Promise<Map<string, number>> {
  if (geofenceIds.length === 0) return new Map();
  const rows = await exec(ctx)
    .select({ id: geofenceMemberships.geofenceId, n: count() })
    .from(geofenceMemberships)
    .where(inArray(geofenceMemberships.geofenceId, [...geofenceIds]))
    .groupBy(geofenceMemberships.geofenceId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

const OccupancyCursor = z.object({ enteredAt: z.iso.datetime({ precision: 3 }), id: z.uuid() });

/** Keyset condition "before the cursor" on (enteredAt, id), newest entry first. */
function before(cursor: string | undefined, idColumn: typeof geofenceMemberships.trackableId | typeof geofenceMemberships.geofenceId) {
  if (!cursor) return undefined;
  const after = decodeCursor(cursor, OccupancyCursor);
  const at = new Date(after.enteredAt);
  return olderThan(geofenceMemberships.enteredAt, idColumn, at, after.id);
}

/** The trackables inside a geofence now, the latest arrival first. */
export async function listOccupants({ ctx, geofenceId, query }: { ctx: Ctx; geofenceId: string; query: OccupancyQuery }) {
  const [fence] = await exec(ctx)
    .select({ id: geofences.id })
    .from(geofences)
    .where(and(eq(geofences.id, geofenceId), eq(geofences.accountId, ctx.account.id)))
    .limit(1);
  if (!fence) throw notFound("Geofence", geofenceId);
  const rows = await exec(ctx)
    .select({ trackableId: trackables.id, name: trackables.name, type: trackables.type, enteredAt: geofenceMemberships.enteredAt })
    .from(geofenceMemberships)
    .innerJoin(trackables, eq(trackables.id, geofenceMemberships.trackableId))
    .where(and(eq(geofenceMemberships.geofenceId, geofenceId), before(query.cursor, geofenceMemberships.trackableId)))
    .orderBy(desc(geofenceMemberships.enteredAt), desc(geofenceMemberships.trackableId))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ enteredAt: r.enteredAt.toISOString(), id: r.trackableId }));
  const data: Occupant[] = page.map((r) => ({ ...r, enteredAt: r.enteredAt.toISOString() }));
  return { data, nextCursor };
}

/** The geofences a trackable is inside now, the latest entry first. */
export async function listTrackableGeofences({ ctx, trackableId, query }: { ctx: Ctx; trackableId: string; query: OccupancyQuery }) {
  const [owned] = await exec(ctx)
    .select({ id: trackables.id })
    .from(trackables)
    .where(and(eq(trackables.id, trackableId), eq(trackables.accountId, ctx.account.id)))
    .limit(1);
  if (!owned) throw notFound("Trackable", trackableId);
  const rows = await exec(ctx)
    .select({ geofenceId: geofences.id, name: geofences.name, enteredAt: geofenceMemberships.enteredAt })
    .from(geofenceMemberships)
    .innerJoin(geofences, eq(geofences.id, geofenceMemberships.geofenceId))
    .where(and(eq(geofenceMemberships.trackableId, trackableId), before(query.cursor, geofenceMemberships.geofenceId)))
    .orderBy(desc(geofenceMemberships.enteredAt), desc(geofenceMemberships.geofenceId))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ enteredAt: r.enteredAt.toISOString(), id: r.geofenceId }));
  const data: TrackableGeofence[] = page.map((r) => ({ ...r, enteredAt: r.enteredAt.toISOString() }));
  return { data, nextCursor };
}

/** How many "who is inside" rows the geofences page shows at most. */
export const MAX_OCCUPANCY_ROWS = 500;

/** Who is inside which of the account's geofences now (the geofences page), the latest arrival first, capped. */
export async function listAccountOccupancy({ ctx }: { ctx: Ctx }) {
  const rows = await exec(ctx)
    .select({
      geofenceId: geofenceMemberships.geofenceId,
      trackableId: trackables.id,
      name: trackables.name,
      enteredAt: geofenceMemberships.enteredAt,
    })
    .from(geofenceMemberships)
    .innerJoin(geofences, eq(geofences.id, geofenceMemberships.geofenceId))
    .innerJoin(trackables, eq(trackables.id, geofenceMemberships.trackableId))
    .where(eq(geofences.accountId, ctx.account.id))
    .orderBy(desc(geofenceMemberships.enteredAt), desc(geofenceMemberships.trackableId))
    .limit(MAX_OCCUPANCY_ROWS + 1);
  return {
    data: rows.slice(0, MAX_OCCUPANCY_ROWS).map((r) => ({ ...r, enteredAt: r.enteredAt.toISOString() })),
    truncated: rows.length > MAX_OCCUPANCY_ROWS,
  };
}
