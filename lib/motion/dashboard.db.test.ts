import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { locations, stops, trackables, trips } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { getMotionStates, PANEL_ROWS, readMotionPanel } from "./dashboard";

// The dashboard's motion reads on a real database: the fleet list's state per trackable in one query, and a trackable
// page's trips and stops with one trip opened.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;
let other: Ctx;

const t = (minute: number) => new Date(Date.UTC(2026, 0, 15, 8, minute));
const north = (m: number) => 52.5 + m / 111_195;

async function trackable(c: Ctx, name: string) {
  const [row] = await unit.db.insert(trackables).values({ accountId: c.account.id, name }).returning({ id: trackables.id });
  return row!.id;
}

function trip(c: Ctx, trackableId: string, v: { status: "ongoing" | "completed"; from: number; to: number | null; distance?: number }) {
  return {
    accountId: c.account.id,
    trackableId,
    status: v.status,
    startedAt: t(v.from),
    endedAt: v.to === null ? null : t(v.to),
    startLatitude: north(0),
    startLongitude: 13.4,
    endLatitude: v.to === null ? null : north(v.distance ?? 1000),
    endLongitude: v.to === null ? null : 13.4,
    distance: v.distance ?? 1000,
    duration: ((v.to ?? v.from + 5) - v.from) * 60,
    maxSpeed: 10,
    pointCount: 5,
    lastFixAt: t(v.to ?? v.from + 5),
  };
}

function stop(c: Ctx, trackableId: string, from: number, to: number | null) {
  return { accountId: c.account.id, trackableId, startedAt: t(from), endedAt: to === null ? null : t(to), latitude: north(0), longitude: 13.4, duration: 60, anchorAt: t(from + 3) };
}

beforeAll(async () => {
  unit = await openUnitDb("motion-dashboard");
  ctx = await unit.account();
  other = await unit.account();
}, 120_000);

afterAll(async () => unit?.close(), 60_000);

describe("getMotionStates", () => {
  it("reads moving since an open trip's start, stopped since the last stop or trip end, nothing without either", async () => {
    const [moving, parked, cut, fresh, foreign] = await Promise.all([
      trackable(ctx, "moving"),
      trackable(ctx, "parked"),
      trackable(ctx, "cut"),
      trackable(ctx, "fresh"),
      trackable(other, "foreign"),
    ]);
    await unit.db.insert(trips).values([
      trip(ctx, moving, { status: "completed", from: 0, to: 10 }),
      trip(ctx, moving, { status: "ongoing", from: 20, to: null }),
      trip(ctx, parked, { status: "completed", from: 0, to: 10 }),
      trip(ctx, cut, { status: "completed", from: 10, to: 30 }),
      trip(other, foreign, { status: "ongoing", from: 0, to: null }),
    ]);
    await unit.db.insert(stops).values([
      stop(ctx, moving, 10, 20),
      stop(ctx, parked, 10, null),
      stop(ctx, cut, 0, 10), // before its trip, which a gap in the fixes ended
    ]);
    const states = await getMotionStates({ ctx, trackableIds: [moving, parked, cut, fresh, foreign] });
    expect(Object.fromEntries(states)).toEqual({
      [moving]: { state: "moving", since: t(20).toISOString() },
      [parked]: { state: "stopped", since: t(10).toISOString() },
      [cut]: { state: "stopped", since: t(30).toISOString() },
    });
    expect((await getMotionStates({ ctx, trackableIds: [] })).size).toBe(0);
  });
});

describe("readMotionPanel", () => {
  it("lists the range's trips and stops newest first and opens one of the trackable's trips with its track", async () => {
    const id = await trackable(ctx, "panel");
    const [first, second] = await unit.db
      .insert(trips)
      .values([trip(ctx, id, { status: "completed", from: 0, to: 10, distance: 3000 }), trip(ctx, id, { status: "ongoing", from: 40, to: null })])
      .returning({ id: trips.id });
    await unit.db.insert(stops).values([stop(ctx, id, 10, 40)]);
    // Fixes of the first trip, 500 m a minute with no reported speed (30 km/h from the legs), and one outside it.
    await unit.db.insert(locations).values([
      ...Array.from({ length: 7 }, (_, i) => ({ trackableId: id, latitude: north(i * 500), longitude: 13.4, timestamp: t(2 + i) })),
      { trackableId: id, latitude: north(3000), longitude: 13.4, timestamp: t(20) },
    ]);

    const panel = await readMotionPanel({ ctx, trackableId: id, from: t(0), to: t(60), tripId: first!.id });
    expect(panel.trips.map((x) => x.id)).toEqual([second!.id, first!.id]);
    expect(panel.stops.map((s) => s.startedAt)).toEqual([t(10).toISOString()]);
    expect([panel.nextTrips, panel.nextStops, panel.tripsPaged, panel.stopsPaged]).toEqual([null, null, false, false]);
    expect(panel.opened?.trip.id).toBe(first!.id);
    expect(panel.opened?.points).toHaveLength(7);
    expect(panel.opened?.speeds.slice(1).map((s) => Math.round(s.kmh))).toEqual([30, 30, 30, 30, 30, 30]);

    // A range that ends before the ongoing trip leaves it out; a trip id of another trackable or a malformed one opens nothing.
    expect((await readMotionPanel({ ctx, trackableId: id, from: t(0), to: t(30) })).trips.map((x) => x.id)).toEqual([first!.id]);
    const elsewhere = await trackable(ctx, "elsewhere");
    expect((await readMotionPanel({ ctx, trackableId: elsewhere, from: t(0), tripId: first!.id })).opened).toBeNull();
    expect((await readMotionPanel({ ctx, trackableId: id, from: t(0), tripId: "not-a-uuid" })).opened).toBeNull();
  });

  it("pages past PANEL_ROWS with cursors, trips and stops each on their own, newest first, every one once", async () => {
    const id = await trackable(ctx, "busy");
    const tripCount = 2 * PANEL_ROWS + 30;
    const stopCount = PANEL_ROWS + 5;
    // A trip every 2 minutes, from one minute past each even minute; a stop on every even minute up to stopCount.
    await unit.db.insert(trips).values(Array.from({ length: tripCount }, (_, i) => trip(ctx, id, { status: "completed", from: 2 * i + 1, to: 2 * i + 2 })));
    await unit.db.insert(stops).values(Array.from({ length: stopCount }, (_, i) => stop(ctx, id, 2 * i, 2 * i + 1)));
    const range = { ctx, trackableId: id, from: t(0), to: t(2 * tripCount + 10) };

    const seen: string[] = [];
    const pages: number[] = [];
    let cursor: string | undefined;
    do {
      const panel = await readMotionPanel({ ...range, tripsCursor: cursor });
      expect(panel.tripsPaged).toBe(cursor !== undefined);
      // The stops stay on their first page while the trips page on.
      expect(panel.stops).toHaveLength(PANEL_ROWS);
      pages.push(panel.trips.length);
      seen.push(...panel.trips.map((x) => x.startedAt));
      cursor = panel.nextTrips ?? undefined;
    } while (cursor);
    expect(pages).toEqual([PANEL_ROWS, PANEL_ROWS, 30]);
    const all = Array.from({ length: tripCount }, (_, i) => t(2 * i + 1).toISOString()).reverse();
    expect(seen).toEqual(all);

    const first = await readMotionPanel(range);
    expect(first.nextStops).not.toBeNull();
    const older = await readMotionPanel({ ...range, stopsCursor: first.nextStops! });
    expect(older.stops.map((s) => s.startedAt)).toEqual(Array.from({ length: 5 }, (_, i) => t(2 * i).toISOString()).reverse());
    expect([older.nextStops, older.stopsPaged, older.tripsPaged]).toEqual([null, true, false]);
    expect(older.trips).toHaveLength(PANEL_ROWS);

    // An address with a cursor that is not one of ours shows the first page.
    const edited = await readMotionPanel({ ...range, tripsCursor: "not-a-cursor", stopsCursor: "eyJ4IjoxfQ" });
    expect([edited.tripsPaged, edited.stopsPaged]).toEqual([false, false]);
    expect(edited.trips.map((x) => x.id)).toEqual(first.trips.map((x) => x.id));
  });
});
