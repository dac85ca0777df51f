import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversineMeters } from "@/lib/geofences/haversine";
import { compareFixes, DEFAULT_MOTION, type Fix, segment, usableFixes } from "./segment";

const T0 = Date.UTC(2026, 10, 25, 8, 0, 0);
const M_PER_DEG = 111_195;
let seq = 0;

/** A fix `north`/`east` metres from a point in Berlin, `s` seconds after T0. */
const fix = (s: number, north: number, east = 0, extra: Partial<Fix> = {}): Fix => ({
  id: `f${String(seq++).padStart(6, "0")}`,
  latitude: 52.5 + north / M_PER_DEG,
  longitude: 13.4 + east / (M_PER_DEG * Math.cos((52.5 * Math.PI) / 180)),
  time: T0 + s * 1000,
  accuracy: 10,
  speed: null,
  ...extra,
});

/** Fixes every `every` seconds from `from` to `to` (inclusive) at one place. */
const still = (from: number, to: number, north: number, every = 30): Fix[] => {
  const out: Fix[] = [];
  for (let s = from; s <= to; s += every) out.push(fix(s, north));
  return out;
};

/** Fixes every `every` seconds driving north at `v` m/s from `north0`. */
const drive = (from: number, to: number, north0: number, v: number, every = 5): Fix[] => {
  const out: Fix[] = [];
  for (let s = from; s <= to; s += every) out.push(fix(s, north0 + (s - from) * v));
  return out;
};

describe("segment: hand-made days", () => {
  it("still, drive, still: one completed trip between two stops", () => {
    const fixes = [...still(0, 1800, 0), ...drive(1805, 2400, 0, 15), ...still(2405, 4200, 595 * 15)];
    const { trips, stops } = segment(usableFixes(fixes, 100), DEFAULT_MOTION);
    expect(trips).toHaveLength(1);
    const [t] = trips;
    expect(t!.status).toBe("completed");
    expect(t!.startedAt).toBe(T0 + 1815_000); // the stop's last fix, 150 m out (the next is 225 m)
    // From the fix 150 m out to the stop's first fix, 150 m before the parking place (the fixes within 200 m of it).
    expect(t!.distance).toBeCloseTo(595 * 15 - 300, -1);
    expect(t!.maxSpeed).toBeCloseTo(15, 0);
    expect(t!.endedAt).toBe(T0 + 2390_000);
    expect(stops).toHaveLength(2);
    expect(stops[0]!.endedAt).toBe(t!.startedAt);
    expect(stops[1]!.startedAt).toBe(t!.endedAt);
    expect(stops[1]!.endedAt).toBeNull();
  });

  it("a red light of a minute is no stop", () => {
    const fixes = [...still(0, 600, 0), ...drive(605, 900, 0, 14), ...still(905, 965, 296 * 14, 5), ...drive(970, 1300, 296 * 14, 14), ...still(1305, 2000, 296 * 14 + 330 * 14)];
    const { trips } = segment(usableFixes(fixes, 100), DEFAULT_MOTION);
    expect(trips).toHaveLength(1);
    expect(trips[0]!.status).toBe("completed");
  });

  it("a tunnel gap of stopGap ends the trip at its last fix before the gap", () => {
    const fixes = [...still(0, 600, 0), ...drive(605, 1200, 0, 15), ...drive(1200 + 3600 + 5, 5400, 20_000, 15), ...still(5405, 6000, 20_000 + 595 * 15)];
    const { trips } = segment(usableFixes(fixes, 100), DEFAULT_MOTION);
    expect(trips.map((t) => t.status)).toEqual(["completed", "completed"]);
    expect(trips[0]!.endedAt).toBe(T0 + 1200_000);
    expect(trips[0]!.end!.latitude).toBeCloseTo(52.5 + (595 * 15) / M_PER_DEG, 6);
  });

  it("a GPS jump of poor accuracy is ignored", () => {
    const fixes = [...still(0, 600, 0), fix(615, 3000, 0, { accuracy: 900 }), ...still(630, 1200, 0)];
    const { trips, stops } = segment(usableFixes(fixes, 100), DEFAULT_MOTION);
    expect(trips).toHaveLength(0);
    expect(stops).toHaveLength(1);
  });

  it("an ongoing trip has no end yet", () => {
    const fixes = [...still(0, 600, 0), ...drive(605, 900, 0, 10)];
    const { trips } = segment(usableFixes(fixes, 100), DEFAULT_MOTION);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ status: "ongoing", endedAt: null, end: null });
    expect(trips[0]!.duration).toBe(280); // from the fix 150 m out at 620 s
  });

  it("a reported speed above the leg speeds is the trip's maxSpeed", () => {
    const fixes = [...still(0, 600, 0), fix(610, 250, 0, { speed: 40 }), ...drive(620, 900, 300, 10), ...still(905, 1500, 3100)];
    expect(segment(usableFixes(fixes, 100), DEFAULT_MOTION).trips[0]!.maxSpeed).toBe(40);
  });
});

/** Random tracks: dwell, drive and gap steps, strictly increasing times. */
const track = fc
  .array(
    fc.record({
      dt: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 120 }) }, { weight: 1, arbitrary: fc.integer({ min: 121, max: 8000 }) }),
      north: fc.oneof({ weight: 3, arbitrary: fc.double({ min: -30, max: 30, noNaN: true }) }, { weight: 2, arbitrary: fc.double({ min: -800, max: 800, noNaN: true }) }),
      east: fc.double({ min: -300, max: 300, noNaN: true }),
      accuracy: fc.oneof({ weight: 9, arbitrary: fc.constant(10) }, { weight: 1, arbitrary: fc.constant(500) }),
      speed: fc.option(fc.double({ min: 0, max: 60, noNaN: true }), { freq: 3 }),
    }),
    { minLength: 1, maxLength: 150 },
  )
  .map((steps) => {
    let s = 0;
    let n = 0;
    let e = 0;
    return steps.map((st) => {
      s += st.dt;
      n += st.north;
      e += st.east;
      return fix(s, n, e, { accuracy: st.accuracy, speed: st.speed });
    });
  });

const settings = fc.record({
  minTripDistance: fc.integer({ min: 50, max: 500 }),
  minStopDuration: fc.integer({ min: 0, max: 600 }),
  stopGap: fc.integer({ min: 60, max: 7200 }),
  speedLimit: fc.constant(null),
  speedMinDuration: fc.constant(10),
});

describe("segment: properties", () => {
  it("any arrival order or batch split gives the same segments once sorted", () => {
    fc.assert(
      fc.property(track, settings, fc.integer(), (fixes, cfg, seed) => {
        const shuffled = fc.sample(fc.shuffledSubarray(fixes, { minLength: fixes.length, maxLength: fixes.length }), { numRuns: 1, seed })[0]!;
        const copies = shuffled.map((f, i) => ({ ...f, id: `other${i}` })); // stored again: other ids
        expect(segment(usableFixes(copies, 100), cfg)).toEqual(segment(usableFixes(fixes, 100), cfg));
      }),
      { numRuns: 300 },
    );
  });

  it("trips never overlap, lie between stops, and cover at least the straight line", () => {
    fc.assert(
      fc.property(track, settings, (fixes, cfg) => {
        const { trips, stops } = segment(usableFixes(fixes, 100), cfg);
        for (let i = 1; i < trips.length; i++) expect(trips[i]!.startedAt).toBeGreaterThanOrEqual(trips[i - 1]!.endedAt!);
        trips.forEach((t, i) => {
          if (i < trips.length - 1) expect(t.status).toBe("completed");
          if (t.end) expect(t.distance).toBeGreaterThanOrEqual(haversineMeters(t.start, t.end) - 1e-6);
          expect(t.duration).toBeGreaterThanOrEqual(0);
          expect(t.pointCount).toBeGreaterThanOrEqual(2);
        });
        for (let i = 1; i < stops.length; i++) expect(stops[i]!.startedAt).toBeGreaterThanOrEqual(stops[i - 1]!.endedAt!);
        // Stops and trips alternate in time: no trip inside a stop.
        for (const t of trips) for (const s of stops) expect(s.endedAt !== null && s.endedAt <= t.startedAt || s.startedAt >= (t.endedAt ?? Infinity) || s.startedAt >= t.lastFixTime).toBe(true);
        // Exactly one open segment: the last.
        const open = trips.filter((t) => t.status === "ongoing").length + stops.filter((s) => s.endedAt === null).length;
        expect(open).toBe(fixes.some((f) => f.accuracy! <= 100) ? 1 : 0);
      }),
      { numRuns: 500 },
    );
  });

  it("resuming from any stop's anchor gives the same tail as segmenting everything", () => {
    fc.assert(
      fc.property(track, settings, (fixes, cfg) => {
        const usable = usableFixes(fixes, 100);
        const all = segment(usable, cfg);
        for (const s of all.stops) {
          const window = usable.filter((f) => f.time >= s.anchorAt).sort(compareFixes);
          const tail = segment(window, cfg, { startedAt: s.startedAt, latitude: s.latitude, longitude: s.longitude });
          expect(tail.stops).toEqual(all.stops.filter((x) => x.startedAt >= s.startedAt));
          expect(tail.trips).toEqual(all.trips.filter((t) => t.startedAt >= s.anchorAt));
        }
      }),
      { numRuns: 300 },
    );
  });
});
