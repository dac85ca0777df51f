import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { locations, stops, trackableStates, trackables, trips } from "@/lib/db/schema";
import type { Owner } from "@/lib/geofences/round-state";
import { openUnitDb } from "@/tests/support/unit-db";
import { motionRound } from "./round";

// A device's buffer sent in one upload (hours of fixes whose ids are all made in the same moment, when they are
// stored) is read by one round; the rounds after it read only the fixes stored since, although the upload's ids stay
// above the trailing watermark for a while. A fix committed late among those ids is still found.

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
let accountId: string;
beforeAll(async () => {
  unit = await openUnitDb("motion-buffer");
  db = unit.db;
  accountId = (await unit.account()).account.id;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

const T0 = Date.UTC(2026, 10, 26, 6, 0, 0);
const M_PER_DEG = 111_195;

interface DayFix {
  s: number;
  north: number;
}

/** Three hours: parked, a drive, parked, a drive, parked, then a drive still going. A fix every 10 s. */
function buffered(): DayFix[] {
  const out: DayFix[] = [];
  let north = 0;
  for (let s = 0; s < 3 * 3600; s += 10) {
    const minute = Math.floor(s / 60);
    const moving = (minute >= 20 && minute < 60) || (minute >= 90 && minute < 120) || minute >= 170;
    if (moving) north += 120;
    out.push({ s, north });
  }
  return out;
}

async function newTrackable(name: string): Promise<Owner> {
  const [t] = await db.insert(trackables).values({ accountId, name }).returning();
  await db.insert(trackableStates).values({ trackableId: t!.id, accountId });
  return { id: t!.id, name: t!.name, type: t!.type, accountId, plan: "enterprise", geofencesVersion: 0 };
}

const row = (owner: Owner, f: DayFix, id = newId()) => ({
  id,
  trackableId: owner.id,
  latitude: 52.5 + f.north / M_PER_DEG,
  longitude: 13.4,
  accuracy: 8,
  timestamp: new Date(T0 + f.s * 1000),
});

/** Stores fixes as the server does: ids made now, in the upload's order. */
async function store(owner: Owner, fixes: readonly DayFix[]) {
  for (let i = 0; i < fixes.length; i += 1000) await db.insert(locations).values(fixes.slice(i, i + 1000).map((f) => row(owner, f)));
}

async function round(owner: Owner) {
  return db.transaction(async (tx) => {
    const motion = await motionRound(tx, [owner]);
    await Promise.all(motion.writes);
    return { read: motion.read, events: [...motion.events.values()].flat() };
  });
}

async function motionOf(owner: Owner) {
  const t = await db
    .select({ startedAt: trips.startedAt, endedAt: trips.endedAt, status: trips.status, pointCount: trips.pointCount, maxSpeed: trips.maxSpeed })
    .from(trips)
    .where(eq(trips.trackableId, owner.id))
    .orderBy(asc(trips.startedAt));
  const s = await db
    .select({ startedAt: stops.startedAt, endedAt: stops.endedAt, latitude: stops.latitude, anchorAt: stops.anchorAt })
    .from(stops)
    .where(eq(stops.trackableId, owner.id))
    .orderBy(asc(stops.startedAt));
  return { trips: t, stops: s };
}

describe("motionRound after a buffered upload", () => {
  it("one round reads the upload; later rounds read only the fixes stored since", async () => {
    const fixes = buffered();
    const upload = fixes.slice(0, fixes.length - 30);
    const owner = await newTrackable("buffer");
    await store(owner, upload);

    const first = await round(owner);
    expect(first.read).toBe(upload.length);
    expect(first.events.filter((e) => e.type === "trip.started")).toHaveLength(3);

    // The upload's ids are all within the trailing watermark's reach, yet nothing is new.
    for (let i = 0; i < 3; i++) expect((await round(owner)).read).toBe(0);

    // Five fixes later on: the round reads those five, no more.
    await store(owner, fixes.slice(upload.length, upload.length + 5));
    const next = await round(owner);
    expect(next.read).toBe(5);
    expect(next.events).toEqual([]);
    expect((await round(owner)).read).toBe(0);

    await store(owner, fixes.slice(upload.length + 5));
    expect((await round(owner)).read).toBe(25);

    const whole = await newTrackable("buffer-whole");
    await store(whole, fixes);
    await round(whole);
    const [got, expected] = [await motionOf(owner), await motionOf(whole)];
    expect(got).toEqual(expected);
    expect(got.trips.map((t) => t.status)).toEqual(["completed", "completed", "ongoing"]);
  });

  it("a fix committed late with an id among the upload's is found, and the trips are those of all the fixes", async () => {
    const fixes = buffered();
    const owner = await newTrackable("buffer-late");
    // The late fix's id is made before the upload's (its transaction began first) but it commits after the round.
    const lateAt = fixes.findIndex((f) => f.s === 140 * 60);
    const lateId = newId();
    await store(
      owner,
      fixes.filter((_, i) => i !== lateAt),
    );
    expect((await round(owner)).read).toBe(fixes.length - 1);
    // Off the road while parked: the late fix starts a trip there and back.
    const late = { s: fixes[lateAt]!.s, north: fixes[lateAt]!.north + 900 };
    await db.insert(locations).values(row(owner, late, lateId));
    const again = await round(owner);
    expect(again.read).toBeGreaterThan(0);
    expect(again.events.filter((e) => e.type === "trip.started")).toHaveLength(1);
    expect((await round(owner)).read).toBe(0);

    const whole = await newTrackable("buffer-late-whole");
    await store(whole, [...fixes.slice(0, lateAt), late, ...fixes.slice(lateAt + 1)]);
    await round(whole);
    expect(await motionOf(owner)).toEqual(await motionOf(whole));
    expect((await motionOf(owner)).trips).toHaveLength(4);
  });

  it("fixes sharing the newest fix's second resume from the state; one that sorts before a fix taken in recomputes", async () => {
    // Half an hour parked, a fix every 10 s, then more fixes within the last one's second (a tracking app that sends
    // whole seconds, twice in one): each round reads that second's fixes, not the whole stop.
    const parked: DayFix[] = Array.from({ length: 181 }, (_, i) => ({ s: i * 10, north: 0 }));
    const last = parked.at(-1)!.s;
    const owner = await newTrackable("same-second");
    await store(owner, parked);
    expect((await round(owner)).read).toBe(parked.length);
    const tied: DayFix[] = [];
    for (let j = 1; j <= 5; j++) {
      const f = { s: last, north: j };
      tied.push(f);
      await store(owner, [f]);
      // The second's fixes: the parked one, and the j sent in it since.
      expect((await round(owner)).read).toBe(1 + j);
    }
    // Sent in the same second but sorting before the fixes taken in (further south): the stop is read again.
    const before = { s: last, north: -3 };
    await store(owner, [before]);
    expect((await round(owner)).read).toBeGreaterThan(100);
    expect((await round(owner)).read).toBe(0);

    const whole = await newTrackable("same-second-whole");
    await store(whole, [...parked, ...tied, before]);
    await round(whole);
    expect(await motionOf(owner)).toEqual(await motionOf(whole));
  });
});
