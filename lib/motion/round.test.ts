import { and, asc, eq, inArray, lt } from "drizzle-orm";
import fc from "fast-check";
import { v7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { locations, motionInbox, stops, trackableStates, trackables, trips } from "@/lib/db/schema";
import type { ProducedEvent } from "@/lib/events/produced";
import { lockAndRead, saveStates, type Owner } from "@/lib/geofences/round-state";
import { openUnitDb } from "@/tests/support/unit-db";
import { motionRound } from "./round";
import { decodeMotionState } from "./state";

// The round on a real database: fixes fed in batches with a round after each give the trips and stops of one round
// over all of them, and a round during a trip resumes from the stored state without reading the trip's older fixes.

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
let accountId: string;
beforeAll(async () => {
  unit = await openUnitDb("motion-round");
  db = unit.db;
  accountId = (await unit.account()).account.id;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

const T0 = Date.UTC(2026, 10, 20, 7, 0, 0);
const M_PER_DEG = 111_195;

interface DayFix {
  s: number;
  north: number;
  speed?: number;
}

/** Parked, a drive with a red light, parked, a second drive still going: a fix every 5 s while driving. */
function day(): DayFix[] {
  const out: DayFix[] = [];
  for (let s = 0; s <= 600; s += 30) out.push({ s, north: 0 });
  let north = 0;
  for (let s = 605; s <= 1500; s += 5) out.push({ s, north: (north += 75), speed: 15 });
  for (let s = 1505; s <= 1560; s += 5) out.push({ s, north }); // a red light of a minute
  for (let s = 1565; s <= 2400; s += 5) out.push({ s, north: (north += 70), speed: 14 });
  for (let s = 2430; s <= 3300; s += 30) out.push({ s, north });
  for (let s = 3305; s <= 4500; s += 5) out.push({ s, north: (north += 80) });
  return out;
}

async function newTrackable(name: string): Promise<Owner> {
  const [t] = await db.insert(trackables).values({ accountId, name }).returning();
  await db.insert(trackableStates).values({ trackableId: t!.id, accountId });
  return { id: t!.id, name: t!.name, type: t!.type, accountId, plan: "enterprise", geofencesVersion: 0 };
}

/** Stores fixes as a device posting them as they happen would: ids (insertion order) made at the fixes' times. */
async function store(owner: Owner, fixes: readonly DayFix[]) {
  if (fixes.length === 0) return;
  await db.insert(locations).values(
    fixes.map((f) => ({
      id: v7({ msecs: T0 + f.s * 1000 + 50 }),
      trackableId: owner.id,
      latitude: 52.5 + f.north / M_PER_DEG,
      longitude: 13.4,
      accuracy: 8,
      speed: f.speed ?? null,
      timestamp: new Date(T0 + f.s * 1000),
    })),
  );
}

async function round(owner: Owner) {
  return db.transaction(async (tx) => {
    const motion = await motionRound(tx, [owner]);
    await Promise.all(motion.writes);
    return [...motion.events.values()].flat();
  });
}

/**
 * A round as the evaluation runs it: its own read (`limit` points after the cursor: one more than it evaluates) takes
 * the inbox rows and hands motion its points, then the cursor moves past the points it evaluated. Motion reads a
 * window only for what the read does not cover. Rounds follow each other while points or inbox rows are left.
 */
async function evaluationRounds(owner: Owner, limit: number) {
  let handed = 0;
  const events: ProducedEvent[] = [];
  for (let more = true; more; ) {
    more = await db.transaction(async (tx) => {
      const reads = await lockAndRead(tx, [owner.id], limit, { motion: true });
      const motion = await motionRound(tx, [owner], { reads: reads.motion, cursors: new Map([[owner.id, reads.locked[0]!.cursor]]) });
      // The evaluation saves the motion states it is handed with its own state update.
      await Promise.all([...motion.writes, saveStates(tx, [], motion.states)]);
      handed += motion.handed;
      events.push(...[...motion.events.values()].flat());
      const points = reads.points.get(owner.id) ?? [];
      const last = points.slice(0, limit - 1).at(-1);
      if (last) await tx.update(trackableStates).set({ evaluatedTimestamp: last.timestamp, evaluatedLocationId: last.id }).where(eq(trackableStates.trackableId, owner.id));
      const left = await tx.select().from(motionInbox).where(eq(motionInbox.trackableId, owner.id));
      return points.length >= limit || left.length > 0;
    });
  }
  return { events, handed };
}

async function motionOf(owner: Owner) {
  const t = await db
    .select({ startedAt: trips.startedAt, endedAt: trips.endedAt, status: trips.status, distance: trips.distance, maxSpeed: trips.maxSpeed, pointCount: trips.pointCount, lastFixAt: trips.lastFixAt })
    .from(trips)
    .where(eq(trips.trackableId, owner.id))
    .orderBy(asc(trips.startedAt));
  const s = await db
    .select({ startedAt: stops.startedAt, endedAt: stops.endedAt, latitude: stops.latitude, longitude: stops.longitude, anchorAt: stops.anchorAt, duration: stops.duration })
    .from(stops)
    .where(eq(stops.trackableId, owner.id))
    .orderBy(asc(stops.startedAt));
  return { trips: t, stops: s };
}

/** The same trips, their distances to 1e-6 m: a recompute sums the same legs, possibly from another starting point. */
function expectSameTrips(got: Awaited<ReturnType<typeof motionOf>>["trips"], expected: Awaited<ReturnType<typeof motionOf>>["trips"]) {
  expect(got.map((t) => ({ ...t, distance: undefined }))).toEqual(expected.map((t) => ({ ...t, distance: undefined })));
  got.forEach((t, i) => expect(t.distance).toBeCloseTo(expected[i]!.distance, 6));
}

const stateOf = async (owner: Owner) =>
  decodeMotionState((await db.select({ state: trackableStates.motionState }).from(trackableStates).where(eq(trackableStates.trackableId, owner.id)))[0]!.state);

describe("motionRound", () => {
  it("fixes in batches, a round after each, give the trips and stops of one round over all of them; each trip starts once", async () => {
    const fixes = day();
    const whole = await newTrackable("whole");
    await store(whole, fixes);
    await round(whole);
    const expected = await motionOf(whole);
    expect(expected.trips.map((t) => t.status)).toEqual(["completed", "ongoing"]);

    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: fixes.length - 1 }), { minLength: 3, maxLength: 40 }), async (cuts) => {
        const owner = await newTrackable("batches");
        const bounds = [...new Set([0, ...cuts, fixes.length])].sort((a, b) => a - b);
        let started = 0;
        let ended = 0;
        for (let i = 1; i < bounds.length; i++) {
          await store(owner, fixes.slice(bounds[i - 1], bounds[i]));
          const events = await round(owner);
          started += events.filter((e) => e.type === "trip.started").length;
          ended += events.filter((e) => e.type === "trip.ended").length;
        }
        const got = await motionOf(owner);
        expect(got.stops).toEqual(expected.stops);
        expectSameTrips(got.trips, expected.trips);
        expect([started, ended]).toEqual([2, 1]);
        const state = await stateOf(owner);
        expect(state?.open.kind).toBe("trip");
      }),
      { numRuns: 6 },
    );
  }, 120_000);

  it("in evaluation rounds, the fixes handed over from the rounds' own reads give the same trips and stops", async () => {
    const fixes = day();
    const whole = await newTrackable("whole-handed");
    await store(whole, fixes);
    await round(whole);
    const expected = await motionOf(whole);

    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: fixes.length - 1 }), { minLength: 3, maxLength: 30 }),
        // Reads that hold every new point, and reads that stop short of them (the rest waits for the next round).
        fc.constantFrom(100_000, 40, 7),
        async (cuts, limit) => {
          const owner = await newTrackable("handed");
          const bounds = [...new Set([0, ...cuts, fixes.length])].sort((a, b) => a - b);
          let started = 0;
          let handed = 0;
          for (let i = 1; i < bounds.length; i++) {
            await store(owner, fixes.slice(bounds[i - 1], bounds[i]));
            const r = await evaluationRounds(owner, limit);
            started += r.events.filter((e) => e.type === "trip.started").length;
            handed += r.handed;
          }
          const got = await motionOf(owner);
          expect(got.stops).toEqual(expected.stops);
          expectSameTrips(got.trips, expected.trips);
          expect(started).toBe(2);
          // After the first round every fix is resumed from the state and comes from a read (the fixes' times differ).
          expect(handed).toBeGreaterThan(0);
          if (limit === 100_000) expect(handed).toBe(fixes.length - bounds[1]!);
        },
      ),
      { numRuns: 8 },
    );
  }, 180_000);

  it("a round whose read stopped at its limit takes the fixes before the last one read and announces the rest", async () => {
    const fixes = day();
    const owner = await newTrackable("announced");
    await store(owner, fixes.slice(0, 50));
    await evaluationRounds(owner, 100_000);
    await store(owner, fixes.slice(50, 80));
    // The read takes 11 of the 30 new points: motion takes the 10 before the 11th's time, and the rest (from that
    // time on) waits for the next round, announced again even if no fix comes after them.
    const handed = await db.transaction(async (tx) => {
      const reads = await lockAndRead(tx, [owner.id], 11, { motion: true });
      const motion = await motionRound(tx, [owner], { reads: reads.motion, cursors: new Map([[owner.id, reads.locked[0]!.cursor]]) });
      await Promise.all([...motion.writes, saveStates(tx, [], motion.states)]);
      return motion.handed;
    });
    expect(handed).toBe(10);
    const left = await db.select({ earliest: motionInbox.earliest }).from(motionInbox).where(eq(motionInbox.trackableId, owner.id));
    expect(left.map((r) => r.earliest.getTime())).toEqual([T0 + fixes[60]!.s * 1000]);
  });

  it("a round during a trip resumes from the stored state: the trip's older fixes are not read again", async () => {
    const fixes = day();
    const owner = await newTrackable("resume");
    const upTo = fixes.findIndex((f) => f.s > 4000);
    await store(owner, fixes.slice(0, upTo));
    await round(owner);
    const state = await stateOf(owner);
    expect(state?.open.kind).toBe("trip");
    if (state?.open.kind !== "trip") return;
    // The stored state is the trip's first fix and a few recent points, not its track.
    expect(state.open.tail.length).toBeLessThanOrEqual(8);

    // With every fix before the state's point gone, the next rounds still carry the trip on to the full day's result.
    await db.delete(locations).where(and(eq(locations.trackableId, owner.id), lt(locations.timestamp, new Date(state.at))));
    for (let i = upTo; i < fixes.length; i += 20) {
      await store(owner, fixes.slice(i, i + 20));
      await round(owner);
    }
    const whole = await newTrackable("whole-2");
    await store(whole, fixes);
    await round(whole);
    const [got, expected] = [await motionOf(owner), await motionOf(whole)];
    expect(got.trips.at(-1)).toMatchObject({ ...expected.trips.at(-1), distance: expect.any(Number) });
    expect(got.trips.at(-1)!.distance).toBeCloseTo(expected.trips.at(-1)!.distance, 6);
    expect(got.trips.at(-1)!.pointCount).toBeGreaterThan(200);
    expect(got.trips.at(-1)!.status).toBe("ongoing");
  }, 60_000);

  it("a fix older than the stored state's point recomputes from the last stop, as a round over all fixes does", async () => {
    const fixes = day();
    const late = fixes.findIndex((f) => f.s === 1100);
    const owner = await newTrackable("late");
    const rest = fixes.filter((_, i) => i !== late);
    for (let i = 0; i < rest.length; i += 100) {
      await store(owner, rest.slice(i, i + 100));
      await round(owner);
    }
    // The late fix arrives after everything else (a new id), far off the road: the first trip's distance grows.
    const before = (await motionOf(owner)).trips[0]!.distance;
    await db.insert(locations).values({ trackableId: owner.id, latitude: 52.5 + 7000 / M_PER_DEG, longitude: 13.41, accuracy: 8, timestamp: new Date(T0 + 1100_000) });
    await round(owner);
    const got = await motionOf(owner);
    expect(got.trips[0]!.distance).toBeGreaterThan(before + 500);

    const whole = await newTrackable("whole-3");
    await store(whole, rest);
    await db.insert(locations).values({ trackableId: whole.id, latitude: 52.5 + 7000 / M_PER_DEG, longitude: 13.41, accuracy: 8, timestamp: new Date(T0 + 1100_000) });
    await round(whole);
    const expected = await motionOf(whole);
    expect(got.stops).toEqual(expected.stops);
    expect(got.trips.map((t) => [t.startedAt, t.endedAt, t.pointCount, t.maxSpeed])).toEqual(expected.trips.map((t) => [t.startedAt, t.endedAt, t.pointCount, t.maxSpeed]));
    got.trips.forEach((t, i) => expect(t.distance).toBeCloseTo(expected.trips[i]!.distance, 6));
    await db.delete(trackables).where(inArray(trackables.id, [owner.id, whole.id]));
  }, 60_000);
});
