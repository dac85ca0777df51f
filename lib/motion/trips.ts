import { and, asc, desc, eq, gte, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
import { stops, trips } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate, olderThan } from "@/lib/http/pagination";
import { exportLocations, exportResponse } from "@/lib/locations/export";
import { listLocations } from "@/lib/locations/locations";
import { requireTrackable } from "@/lib/trackables/trackables";
import type { StopListQuery, TripListQuery, TripLocationsQuery } from "./schemas";
import { serializeStop, serializeTrip } from "./serialize";

// Reading trips and stops: keyset pages newest first by (startedAt, id), a trip, and a trip's track.

const Cursor = z.object({ startedAt: z.iso.datetime({ precision: 3 }), id: z.uuid() });

/** Rows after the cursor in (startedAt desc, id desc) order. */
function after(table: typeof trips | typeof stops, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const c = decodeCursor(cursor, Cursor);
  const at = new Date(c.startedAt);
  return olderThan(table.startedAt, table.id, at, c.id);
}

/** In range: ending at or after `from` (an open one never ended), starting at or before `to`. */
function inRange(table: typeof trips | typeof stops, from?: Date, to?: Date): SQL | undefined {
  return and(from ? or(isNull(table.endedAt), gte(table.endedAt, from)) : undefined, to ? lte(table.startedAt, to) : undefined);
}

export async function listTrips({ ctx, query }: { ctx: Ctx; query: TripListQuery }) {
  if (query.trackableId) await requireTrackable(ctx, query.trackableId);
  const rows = await exec(ctx)
    .select()
    .from(trips)
    .where(
      and(
        eq(trips.accountId, ctx.account.id),
        query.trackableId ? eq(trips.trackableId, query.trackableId) : undefined,
        query.status ? eq(trips.status, query.status) : undefined,
        inRange(trips, query.from, query.to),
        after(trips, query.cursor),
      ),
    )
    .orderBy(desc(trips.startedAt), desc(trips.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ startedAt: r.startedAt.toISOString(), id: r.id }));
  return { data: page.map(serializeTrip), nextCursor };
}

async function requireTrip(ctx: Ctx, id: string) {
  const [row] = await exec(ctx)
    .select()
    .from(trips)
    .where(and(eq(trips.id, id), eq(trips.accountId, ctx.account.id)))
    .limit(1);
  if (!row) throw notFound("Trip", id);
  return row;
}

export async function getTrip({ ctx, id }: { ctx: Ctx; id: string }) {
  return serializeTrip(await requireTrip(ctx, id));
}

/**
 * The locations of a trip's time span (startedAt to endedAt, or to its newest fix while ongoing), oldest first: a
 * keyset-paged JSON list, or a GPX or GeoJSON download (the history export's writers).
 */
export async function tripLocations({ ctx, id, query }: { ctx: Ctx; id: string; query: TripLocationsQuery }): Promise<Response | { data: unknown[]; nextCursor: string | null }> {
  const trip = await requireTrip(ctx, id);
  const range = { from: trip.startedAt, to: trip.endedAt ?? trip.lastFixAt };
  if (query.format === "json") {
    return listLocations({ ctx, trackableId: trip.trackableId, query: { ...range, order: "asc", limit: query.limit, cursor: query.cursor } });
  }
  return exportResponse(await exportLocations({ ctx, trackableId: trip.trackableId, query: { ...range, format: query.format } }));
}

export async function listStops({ ctx, query }: { ctx: Ctx; query: StopListQuery }) {
  if (query.trackableId) await requireTrackable(ctx, query.trackableId);
  const rows = await exec(ctx)
    .select()
    .from(stops)
    .where(
      and(
        eq(stops.accountId, ctx.account.id),
        query.trackableId ? eq(stops.trackableId, query.trackableId) : undefined,
        inRange(stops, query.from, query.to),
        after(stops, query.cursor),
      ),
    )
    .orderBy(desc(stops.startedAt), desc(stops.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ startedAt: r.startedAt.toISOString(), id: r.id }));
  return { data: page.map(serializeStop), nextCursor };
}

/** A trackable's trips overlapping [from, to), oldest first (the summary's input). */
export async function tripsBetween(ctx: Ctx, trackableId: string, from: Date, to: Date) {
  return exec(ctx)
    .select()
    .from(trips)
    .where(and(eq(trips.accountId, ctx.account.id), eq(trips.trackableId, trackableId), lt(trips.startedAt, to), or(isNull(trips.endedAt), gte(trips.endedAt, from))))
    .orderBy(asc(trips.startedAt));
}
