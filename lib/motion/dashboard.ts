import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { stops, trackables, trips } from "@/lib/db/schema";
import { haversineMeters } from "@/lib/geofences/haversine";
import { ApiError } from "@/lib/http/errors";
import type { Location } from "@/lib/locations/schemas";
import { readTrack } from "@/lib/locations/track";
import { Id } from "@/lib/schemas/common";
import { serializeTrip } from "./serialize";
import { listStops, listTrips } from "./trips";
import type { Stop, Trip } from "./schemas";

// What the dashboard reads of motion: a trackable page's trips and stops with one trip opened, and the fleet list's
// "moving since" / "stopped since" for a page of trackables.

/** Trips and stops a trackable page lists at a time; older ones are the next pages (keyset cursors, as the API's). */
export const PANEL_ROWS = 100;

export interface SpeedSample {
  /** Epoch ms. */
  at: number;
  /** km/h: the fix's reported speed, else the leg from the previous fix. */
  kmh: number;
}

/** km/h at each fix of a track, oldest first: the reported speed where there is one, else the speed of the leg that led there. */
export function speedSeries(points: Pick<Location, "latitude" | "longitude" | "speed" | "timestamp">[]): SpeedSample[] {
  return points.map((p, i) => {
    const at = Date.parse(p.timestamp);
    if (p.speed != null) return { at, kmh: p.speed * 3.6 };
    const prev = points[i - 1];
    if (!prev) return { at, kmh: 0 };
    const seconds = (at - Date.parse(prev.timestamp)) / 1000;
    return { at, kmh: seconds > 0 ? (haversineMeters(prev, p) / seconds) * 3.6 : 0 };
  });
}

/** The chart draws at most this many samples: about one per pixel of its width. */
export const CHART_SAMPLES = 600;

/**
 * At most `max` samples for drawing: the series cut into `max` runs of equal count, each kept as its fastest sample
 * (a peak survives the thinning, where every n-th sample would drop it).
 */
export function thinSpeeds(samples: SpeedSample[], max = CHART_SAMPLES): SpeedSample[] {
  if (samples.length <= max) return samples;
  const out: SpeedSample[] = [];
  for (let b = 0; b < max; b++) {
    const run = samples.slice(Math.floor((b * samples.length) / max), Math.floor(((b + 1) * samples.length) / max));
    out.push(run.reduce((a, x) => (x.kmh > a.kmh ? x : a)));
  }
  return out;
}

export interface OpenedTrip {
  trip: Trip;
  points: Location[];
  truncated: boolean;
  /** km/h along the trip, thinned to CHART_SAMPLES. */
  speeds: SpeedSample[];
}

/** A trackable page's trips and stops: one page of each, newest first, the cursors of the next pages, and an opened trip. */
export interface MotionPanel {
  trips: Trip[];
  stops: Stop[];
  /** The cursor of the page after this one, null on the last. */
  nextTrips: string | null;
  nextStops: string | null;
  /** Whether this page is a later one (a usable cursor was given): the panel offers the way back to the newest. */
  tripsPaged: boolean;
  stopsPaged: boolean;
  opened: OpenedTrip | null;
}

/**
 * A trackable's trips and stops in a range, PANEL_ROWS of each from their cursors (the newest without one), and the
 * trip `tripId` with its track when it is one of this trackable's (a stale or foreign id opens nothing). A cursor that
 * is not one of ours (an edited address) gives the first page, as a stale trip id gives no opened trip.
 */
export async function readMotionPanel({
  ctx,
  trackableId,
  from,
  to,
  tripId,
  tripsCursor,
  stopsCursor,
}: {
  ctx: Ctx;
  trackableId: string;
  from: Date;
  to?: Date;
  tripId?: string;
  tripsCursor?: string;
  stopsCursor?: string;
}): Promise<MotionPanel> {
  const [tripPage, stopPage, opened] = await Promise.all([
    fromCursor(tripsCursor, (cursor) => listTrips({ ctx, query: { trackableId, from, to, limit: PANEL_ROWS, cursor } })),
    fromCursor(stopsCursor, (cursor) => listStops({ ctx, query: { trackableId, from, to, limit: PANEL_ROWS, cursor } })),
    tripId ? openTrip(ctx, trackableId, tripId) : null,
  ]);
  return {
    trips: tripPage.data,
    stops: stopPage.data,
    nextTrips: tripPage.nextCursor,
    nextStops: stopPage.nextCursor,
    tripsPaged: tripPage.paged,
    stopsPaged: stopPage.paged,
    opened,
  };
}

/** A page from the cursor, or the first page when there is none or it is not a cursor of ours. */
async function fromCursor<P>(cursor: string | undefined, list: (cursor?: string) => Promise<P>): Promise<P & { paged: boolean }> {
  if (cursor) {
    try {
      return { ...(await list(cursor)), paged: true };
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "invalid_request")) throw err;
    }
  }
  return { ...(await list()), paged: false };
}

async function openTrip(ctx: Ctx, trackableId: string, tripId: string): Promise<OpenedTrip | null> {
  if (!Id.safeParse(tripId).success) return null;
  const [row] = await exec(ctx)
    .select()
    .from(trips)
    .where(and(eq(trips.id, tripId), eq(trips.accountId, ctx.account.id), eq(trips.trackableId, trackableId)))
    .limit(1);
  if (!row) return null;
  const track = await readTrack({ ctx, trackableId, from: row.startedAt, to: row.endedAt ?? row.lastFixAt });
  return { trip: serializeTrip(row), points: track.points, truncated: track.truncated, speeds: thinSpeeds(speedSeries(track.points)) };
}

export type MotionState = { state: "moving" | "stopped"; since: string };

/**
 * Whether each trackable moves or stands, and since when: its open trip (moving since its start), else its newest stop
 * or the end of its newest trip, whichever is later (stopped since then). One query for the whole page: a backward
 * probe of the trips and stops indexes per trackable.
 */
export async function getMotionStates({ ctx, trackableIds }: { ctx: Ctx; trackableIds: string[] }): Promise<Map<string, MotionState>> {
  const out = new Map<string, MotionState>();
  if (trackableIds.length === 0) return out;
  const lastTrip = exec(ctx)
    .select({ status: trips.status, startedAt: trips.startedAt, endedAt: trips.endedAt })
    .from(trips)
    .where(eq(trips.trackableId, trackables.id))
    .orderBy(desc(trips.startedAt), desc(trips.id))
    .limit(1)
    .as("last_trip");
  const lastStop = exec(ctx)
    .select({ startedAt: stops.startedAt })
    .from(stops)
    .where(eq(stops.trackableId, trackables.id))
    .orderBy(desc(stops.startedAt), desc(stops.id))
    .limit(1)
    .as("last_stop");
  const rows = await exec(ctx)
    .select({
      id: trackables.id,
      tripStatus: lastTrip.status,
      tripStartedAt: lastTrip.startedAt,
      tripEndedAt: lastTrip.endedAt,
      stopStartedAt: lastStop.startedAt,
    })
    .from(trackables)
    .leftJoinLateral(lastTrip, sql`true`)
    .leftJoinLateral(lastStop, sql`true`)
    .where(and(eq(trackables.accountId, ctx.account.id), inArray(trackables.id, trackableIds)));
  for (const r of rows) {
    const state = motionState(r);
    if (state) out.set(r.id, state);
  }
  return out;
}

/** The rule of getMotionStates on one trackable's newest trip and newest stop. */
export function motionState(r: { tripStatus: string | null; tripStartedAt: Date | null; tripEndedAt: Date | null; stopStartedAt: Date | null }): MotionState | null {
  if (r.tripStatus === "ongoing" && r.tripStartedAt) return { state: "moving", since: r.tripStartedAt.toISOString() };
  const candidates = [r.tripEndedAt, r.stopStartedAt].filter((d): d is Date => d !== null);
  if (candidates.length === 0) return null;
  const since = candidates.reduce((a, b) => (b > a ? b : a));
  return { state: "stopped", since: since.toISOString() };
}
