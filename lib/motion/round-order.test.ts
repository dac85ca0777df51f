import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { locations, stops, trackableStates, trackables, trips } from "@/lib/db/schema";
import type { ProducedEvent } from "@/lib/events/produced";
import type { Owner } from "@/lib/geofences/round-state";
import { openUnitDb } from "@/tests/support/unit-db";
import { motionRound } from "./round";
import { summarize } from "./summary";

// Order does not matter, through the database round: generated tracks stored in shuffled order, in batches of any
// size with a round after each, give the trips, stops and daily summaries of one round over all of them in order, and
// trip.started / trip.ended go out at most once per trip id, exactly once for each trip that is left.

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
let ctx: Ctx;
beforeAll(async () => {
  unit = await openUnitDb("motion-order");
  db = unit.db;
  ctx = await unit.account();
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

const T0 = Date.UTC(2026, 10, 27, 21, 0, 0); // Berlin's midnight falls inside the generated days
const M_PER_DEG = 111_195;

interface TrackFix {
  s: number;
  north: number;
  east: number;
}

/** Parked spells (jitter of a few metres) and drives (100–250 m a fix), sometimes a gap of over an hour between them. */
const piece = fc.record({
  kind: fc.constantFrom("park", "drive"),
  count: fc.integer({ min: 3, max: 30 }),
  every: fc.integer({ min: 5, max: 40 }),
  step: fc.integer({ min: 100, max: 250 }),
  heading: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  gapBefore: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 3600, max: 5000 }) }),
});
const track = fc.array(piece, { minLength: 2, maxLength: 7 }).map((pieces) => {
  const out: TrackFix[] = [];
  let s = 0;
  let north = 0;
  let east = 0;
  for (const p of pieces) {
    s += p.gapBefore;
    for (let i = 0; i < p.count; i++) {
      s += p.every;
      if (p.kind === "drive") {
        north += p.step * Math.cos(p.heading);
        east += p.step * Math.sin(p.heading);
      }
      out.push({ s, north: north + (p.kind === "park" ? (i % 3) * 4 : 0), east });
    }
  }
  return out;
});

/** A track with how it arrives: a permutation (a seed) and the cut points of its batches. */
const arrival = track.chain((fixes) =>
  fc.record({
    fixes: fc.constant(fixes),
    order: fc.shuffledSubarray(
      fixes.map((_, i) => i),
      { minLength: fixes.length, maxLength: fixes.length },
    ),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, fixes.length - 1) }), { maxLength: 8 }),
  }),
);

async function newTrackable(name: string): Promise<Owner> {
  const [t] = await db.insert(trackables).values({ accountId: ctx.account.id, name }).returning();
  await db.insert(trackableStates).values({ trackableId: t!.id, accountId: ctx.account.id });
  return { id: t!.id, name: t!.name, type: t!.type, accountId: ctx.account.id, plan: "enterprise", geofencesVersion: 0 };
}

/** Stores fixes as the server does: ids made when stored, so a fix of an earlier moment stored later is a late fix. */
async function store(owner: Owner, fixes: readonly TrackFix[]) {
  if (fixes.length === 0) return;
  await db.insert(locations).values(
    fixes.map((f) => ({
      id: newId(),
      trackableId: owner.id,
      latitude: 52.5 + f.north / M_PER_DEG,
      longitude: 13.4 + f.east / (M_PER_DEG * Math.cos((52.5 * Math.PI) / 180)),
      accuracy: 10,
      timestamp: new Date(T0 + f.s * 1000),
    })),
  );
}

async function round(owner: Owner): Promise<ProducedEvent[]> {
  return db.transaction(async (tx) => {
    const motion = await motionRound(tx, [owner]);
    await Promise.all(motion.writes);
    return [...motion.events.values()].flat();
  });
}

/** The stored trips (without ids), stops and Berlin days of a trackable. */
async function motionOf(owner: Owner, fixes: readonly TrackFix[]) {
  const t = await db
    .select({ id: trips.id, startedAt: trips.startedAt, endedAt: trips.endedAt, status: trips.status, distance: trips.distance, maxSpeed: trips.maxSpeed, pointCount: trips.pointCount })
    .from(trips)
    .where(eq(trips.trackableId, owner.id))
    .orderBy(asc(trips.startedAt));
  const s = await db
    .select({ startedAt: stops.startedAt, endedAt: stops.endedAt, latitude: stops.latitude, longitude: stops.longitude, duration: stops.duration })
    .from(stops)
    .where(eq(stops.trackableId, owner.id))
    .orderBy(asc(stops.startedAt));
  const last = T0 + fixes[fixes.length - 1]!.s * 1000;
  const summary = await summarize({ ctx, query: { trackableId: owner.id, from: new Date(T0 - 86_400_000), to: new Date(last + 86_400_000), timeZone: "Europe/Berlin", period: "day" } });
  return { ids: t.map((x) => x.id), trips: t.map((x) => ({ ...x, id: undefined })), stops: s, days: summary.days };
}

/** Distances and speeds are sums of float legs taken in other groupings: equal to 1e-6. */
function expectSame(got: Awaited<ReturnType<typeof motionOf>>, expected: Awaited<ReturnType<typeof motionOf>>) {
  expect(got.stops).toEqual(expected.stops);
  const exact = (list: typeof got.trips) => list.map((t) => ({ ...t, distance: Math.round(t.distance * 1e3), maxSpeed: Math.round(t.maxSpeed * 1e3) }));
  expect(exact(got.trips)).toEqual(exact(expected.trips));
  const days = (list: typeof got.days) => list.map((d) => ({ ...d, distance: Math.round(d.distance * 1e3), maxSpeed: Math.round(d.maxSpeed * 1e3) }));
  expect(days(got.days)).toEqual(days(expected.days));
}

/** Per trip id, how many trip.started and trip.ended events were produced. */
function countEvents(events: readonly ProducedEvent[]) {
  const started = new Map<string, number>();
  const ended = new Map<string, number>();
  for (const e of events) {
    const into = e.type === "trip.started" ? started : e.type === "trip.ended" ? ended : null;
    if (into && e.tripId) into.set(e.tripId, (into.get(e.tripId) ?? 0) + 1);
  }
  return { started, ended };
}

describe("motionRound: arrival order does not matter", () => {
  it("shuffled fixes in batches of any size give the trips, stops and days of all of them in order; trip events once per trip", async () => {
    await fc.assert(
      fc.asyncProperty(arrival, async ({ fixes, order, cuts }) => {
        const whole = await newTrackable("in-order");
        await store(whole, fixes);
        await round(whole);
        const expected = await motionOf(whole, fixes);

        const owner = await newTrackable("shuffled");
        const shuffled = order.map((i) => fixes[i]!);
        const bounds = [...new Set([0, ...cuts, shuffled.length])].sort((a, b) => a - b);
        const events: ProducedEvent[] = [];
        for (let i = 1; i < bounds.length; i++) {
          await store(owner, shuffled.slice(bounds[i - 1], bounds[i]));
          events.push(...(await round(owner)));
        }
        const got = await motionOf(owner, fixes);
        expectSame(got, expected);

        const { started, ended } = countEvents(events);
        for (const n of [...started.values(), ...ended.values()]) expect(n).toBe(1);
        for (const [i, id] of got.ids.entries()) {
          expect(started.get(id)).toBe(1);
          expect(ended.get(id)).toBe(got.trips[i]!.status === "completed" ? 1 : undefined);
        }
        // A further round finds nothing new and sends nothing.
        expect(await round(owner)).toEqual([]);
      }),
      { numRuns: 15 },
    );
  }, 300_000);

  it("a drive's last fix before a gap of over an hour, arriving after the gap: the trip goes on to it, as in order", async () => {
    // Without that fix the trip ends at the one before it and a stop begins there; that stop is no point to recompute
    // from once the late fix comes (it lies in the gap), though its confirming fix is older than the late one.
    const fixes: TrackFix[] = [];
    for (let i = 1; i <= 10; i++) fixes.push({ s: i * 36, north: i * 195, east: 0 });
    for (let i = 0; i < 7; i++) fixes.push({ s: 360 + 8 * (i + 1), north: 1950 + (i % 3) * 4, east: 0 });
    for (let i = 1; i <= 6; i++) fixes.push({ s: 416 + 7 * i, north: 1950 + 149 * i, east: 0 });
    for (let i = 1; i <= 8; i++) fixes.push({ s: 4150 + 15 * i, north: 2844 + 245 * i, east: 0 });
    const lastBeforeGap = fixes.findIndex((f) => f.s === 458);
    const whole = await newTrackable("gap-in-order");
    await store(whole, fixes);
    await round(whole);
    const owner = await newTrackable("gap-late");
    await store(owner, fixes.filter((_, i) => i !== lastBeforeGap));
    await round(owner);
    await store(owner, [fixes[lastBeforeGap]!]);
    await round(owner);
    expectSame(await motionOf(owner, fixes), await motionOf(whole, fixes));
  }, 60_000);

  it("fixes one by one, newest first, give the same as all at once", async () => {
    const fixes = fc.sample(arrival, { numRuns: 1, seed: 2026 })[0]!.fixes;
    const whole = await newTrackable("at-once");
    await store(whole, fixes);
    await round(whole);
    const owner = await newTrackable("newest-first");
    const events: ProducedEvent[] = [];
    for (const f of [...fixes].reverse()) {
      await store(owner, [f]);
      events.push(...(await round(owner)));
    }
    const got = await motionOf(owner, fixes);
    expectSame(got, await motionOf(whole, fixes));
    const { started } = countEvents(events);
    for (const id of got.ids) expect(started.get(id)).toBe(1);
  }, 120_000);
});
