import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversineMeters } from "@/lib/geofences/haversine";
import { compareFixes, DEFAULT_MOTION, type Fix, type OpenSegment, segment, Segmenter, type Segmentation, usableFixes } from "./segment";
import { decodeMotionState, encodeMotionState } from "./state";

/** An open segment as the next round reads it back: in the stored form of a motion state, through JSON (jsonb). */
const throughStorage = (open: OpenSegment | null): OpenSegment | null =>
  open === null
    ? null
    : decodeMotionState(JSON.parse(JSON.stringify(encodeMotionState({ at: 0, tie: { latitude: 0, longitude: 0, id: "", count: 0 }, basis: "", open, speed: { prev: null, startedAt: null, fired: false }, trip: null }))))!.open;

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

/** Random tracks that also creep and jitter in place (steps of a few metres either way), so runs reach far back. */
const slowTrack = fc
  .array(
    fc.record({
      dt: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 60 }) }, { weight: 1, arbitrary: fc.integer({ min: 61, max: 8000 }) }),
      north: fc.oneof({ weight: 6, arbitrary: fc.double({ min: -40, max: 40, noNaN: true }) }, { weight: 1, arbitrary: fc.double({ min: -600, max: 600, noNaN: true }) }),
      east: fc.double({ min: -40, max: 40, noNaN: true }),
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
      return fix(s, n, e, { speed: st.speed });
    });
  });

const settings = fc.record({
  minTripDistance: fc.integer({ min: 50, max: 500 }),
  minStopDuration: fc.integer({ min: 0, max: 600 }),
  stopGap: fc.integer({ min: 60, max: 7200 }),
  speedLimit: fc.constant(null),
  speedMinDuration: fc.constant(10),
});

/**
 * A track wandering on a grid of quarter-minTripDistance steps within 2·minTripDistance of where it began: its
 * stopping runs reach back over fixes far from the newest one, the case a resumed trip's kept tail must cover.
 */
const hovering = (d: number) =>
  fc
    .array(
      fc.record({
        dt: fc.integer({ min: 1, max: 90 }),
        step: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: -7, max: 7 }) }),
        east: fc.integer({ min: -1, max: 1 }),
      }),
      { minLength: 1, maxLength: 120 },
    )
    .map((steps) => {
      let s = 0;
      let n = 0;
      return steps.map((st) => {
        n = Math.max(-8, Math.min(8, n + st.step));
        return fix((s += st.dt), (n * d) / 4, (st.east * d) / 8);
      });
    });

/** Settings with a track: the random tracks, or one hovering at the settings' own scale. */
const withTrack = settings.chain((cfg) => fc.tuple(fc.constant(cfg), fc.oneof(track, slowTrack, hovering(cfg.minTripDistance))));

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

  it("resuming from the stored open segment at arbitrary batch boundaries gives exactly the segments of all fixes at once", () => {
    fc.assert(
      fc.property(withTrack, fc.array(fc.integer({ min: 0, max: 150 }), { maxLength: 40 }), ([cfg, fixes], cuts) => {
        const usable = usableFixes(fixes, 100);
        const all = segment(usable, cfg);
        const bounds = [...new Set([0, ...cuts.map((c) => Math.min(c, usable.length)), usable.length])].sort((a, b) => a - b);
        // Each batch goes through a new Segmenter started from the previous one's state, stored in between.
        let stored: OpenSegment | null = null;
        const closed: Segmentation = { trips: [], stops: [] };
        let last: Segmentation = { trips: [], stops: [] };
        for (let i = 1; i < bounds.length; i++) {
          const m: Segmenter = new Segmenter(cfg, stored === null ? null : throughStorage(stored));
          for (const f of usable.slice(bounds[i - 1], bounds[i])) m.push(f);
          last = m.finish();
          closed.trips.push(...last.trips.filter((t) => t.status === "completed"));
          closed.stops.push(...last.stops.filter((x) => x.endedAt !== null));
          stored = m.state();
          if (stored?.kind === "trip") {
            // The running totals carried over are the ongoing trip's, as a full recompute of the batches so far has them.
            const sofar = segment(usable.slice(0, bounds[i]), cfg).trips.at(-1)!;
            const newest = stored.tail.at(-1)!;
            expect(sofar.status).toBe("ongoing");
            expect([newest.distance, newest.maxSpeed, newest.count, stored.first.time]).toEqual([sofar.distance, sofar.maxSpeed, sofar.pointCount, sofar.startedAt]);
            for (const p of stored.tail) expect(haversineMeters(p.fix, newest.fix)).toBeLessThanOrEqual(2 * cfg.minTripDistance + 1);
          }
        }
        const open = { trips: last.trips.filter((t) => t.status === "ongoing"), stops: last.stops.filter((x) => x.endedAt === null) };
        expect({ trips: [...closed.trips, ...open.trips], stops: [...closed.stops, ...open.stops] }).toEqual(all);
      }),
      { numRuns: 500 },
    );
  });
});

describe("segment: resuming after every fix", () => {
  it("the state after any prefix, stored and read back, with the rest of the fixes gives the whole track's open and later segments", () => {
    fc.assert(
      fc.property(withTrack, ([cfg, fixes]) => {
        const usable = usableFixes(fixes, 100);
        const all = new Segmenter(cfg);
        for (const f of usable) all.push(f);
        const expected = all.finish();
        const prefix = new Segmenter(cfg);
        for (let i = 0; i < usable.length; i++) {
          prefix.push(usable[i]!);
          const closed = prefix.finish();
          const resumed = new Segmenter(cfg, throughStorage(prefix.state()));
          for (const f of usable.slice(i + 1)) resumed.push(f);
          const rest = resumed.finish();
          const trips = [...closed.trips.filter((t) => t.status === "completed"), ...rest.trips];
          const stops = [...closed.stops.filter((x) => x.endedAt !== null), ...rest.stops];
          expect({ trips, stops }).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("segment: the stored state of an open trip", () => {
  it("stays a few points however long the trip has been going", () => {
    // 1,200 fixes 5 s apart at 15 m/s: the points within 2 x 200 m of the newest are the last six.
    const fixes = [...still(0, 600, 0), ...drive(605, 605 + 1199 * 5, 0, 15)];
    const m = new Segmenter(DEFAULT_MOTION);
    for (const f of usableFixes(fixes, 100)) m.push(f);
    const state = m.state();
    expect(state?.kind).toBe("trip");
    if (state?.kind !== "trip") return;
    expect(state.tail.length).toBeLessThanOrEqual(6);
    expect(state.whole).toBe(false);
    expect(state.tail.at(-1)!.count).toBe(segment(usableFixes(fixes, 100), DEFAULT_MOTION).trips[0]!.pointCount);
  });

  it("a stop whose run reaches back past fixes far from the newest one is found after a resume", () => {
    // Driving, then waiting 200 s at 10 km, one fix 350 m on, then one halfway back: its run (all within 200 m of it)
    // reaches back over the wait, which is farther than minTripDistance from the fix before the resume.
    const cfg = { ...DEFAULT_MOTION, minStopDuration: 300 };
    const fixes = usableFixes([...still(0, 600, 0), ...drive(605, 1270, 0, 15), ...still(1280, 1480, 10_000, 20), fix(1490, 10_350), fix(1600, 10_175)], 100);
    const full = segment(fixes, cfg);
    expect(full.trips[0]).toMatchObject({ status: "completed", endedAt: T0 + 1280_000 });
    const first = new Segmenter(cfg);
    for (const f of fixes.slice(0, -1)) first.push(f);
    const resumed = new Segmenter(cfg, throughStorage(first.state()));
    resumed.push(fixes.at(-1)!);
    // The resumed segmenter reports what it closed and opened: the trip and the stop after it.
    expect(resumed.finish()).toEqual({ trips: full.trips, stops: full.stops.slice(1) });
  });

  it("a long trip that ends in a stop after a resume ends where a full recompute ends it", () => {
    const fixes = usableFixes([...still(0, 600, 0), ...drive(605, 3600, 0, 15), ...still(3605, 4400, 2995 * 15, 20)], 100);
    const cut = fixes.findIndex((f) => f.time >= T0 + 3000_000);
    const first = new Segmenter(DEFAULT_MOTION);
    for (const f of fixes.slice(0, cut)) first.push(f);
    const resumed = new Segmenter(DEFAULT_MOTION, first.state());
    for (const f of fixes.slice(cut)) resumed.push(f);
    const full = segment(fixes, DEFAULT_MOTION);
    expect(resumed.finish().trips).toEqual(full.trips);
    expect(full.trips[0]!.status).toBe("completed");
  });
});

/**
 * The contract's rules read directly, as a slow reference: the whole track kept, every distance a haversine, no state
 * trimmed or resumed. Segmenter must give exactly its segments.
 */
function referenceSegment(fixes: readonly Fix[], cfg: typeof DEFAULT_MOTION): Segmentation {
  const D = cfg.minTripDistance;
  const out: Segmentation = { trips: [], stops: [] };
  let stop: { startedAt: number; anchor: Fix; anchorAt: number; last: Fix } | null = null;
  let track: Fix[] = [];
  const closeStop = (s: NonNullable<typeof stop>, ended: boolean) =>
    out.stops.push({ startedAt: s.startedAt, endedAt: ended ? s.last.time : null, latitude: s.anchor.latitude, longitude: s.anchor.longitude, duration: (s.last.time - s.startedAt) / 1000, anchorAt: s.anchorAt });
  const tripUpTo = (end: number, completed: boolean) => {
    let distance = 0;
    let maxSpeed = 0;
    for (let i = 1; i <= end; i++) {
      const leg = haversineMeters(track[i - 1]!, track[i]!);
      distance += leg;
      if (track[i]!.speed !== null && track[i]!.speed! > maxSpeed) maxSpeed = track[i]!.speed!;
      const dt = (track[i]!.time - track[i - 1]!.time) / 1000;
      if (dt > 0 && leg / dt > maxSpeed) maxSpeed = leg / dt;
    }
    const first = track[0]!;
    const last = track[end]!;
    out.trips.push({
      status: completed ? "completed" : "ongoing",
      startedAt: first.time,
      endedAt: completed ? last.time : null,
      start: { latitude: first.latitude, longitude: first.longitude },
      end: completed ? { latitude: last.latitude, longitude: last.longitude } : null,
      distance,
      duration: (last.time - first.time) / 1000,
      maxSpeed,
      pointCount: end + 1,
      firstFixTime: first.time,
      lastFixTime: last.time,
    });
  };
  const push = (f: Fix): void => {
    if (stop) {
      if (haversineMeters(stop.anchor, f) < D) stop.last = f;
      else if (f.time - stop.last.time >= cfg.stopGap * 1000) {
        closeStop(stop, true);
        stop = { startedAt: f.time, anchor: f, anchorAt: f.time, last: f };
      } else {
        closeStop(stop, true);
        track = [stop.last, f];
        stop = null;
      }
      return;
    }
    if (track.length === 0) {
      stop = { startedAt: f.time, anchor: f, anchorAt: f.time, last: f };
      return;
    }
    const prev = track.at(-1)!;
    if (f.time - prev.time >= cfg.stopGap * 1000) {
      tripUpTo(track.length - 1, true);
      stop = { startedAt: prev.time, anchor: prev, anchorAt: prev.time, last: prev };
      track = [];
      push(f);
      return;
    }
    track.push(f);
    let k = track.length - 1;
    while (k > 1 && haversineMeters(track[k - 1]!, f) < D) k--;
    if (f.time - track[k]!.time >= cfg.minStopDuration * 1000) {
      tripUpTo(k, true);
      stop = { startedAt: track[k]!.time, anchor: f, anchorAt: f.time, last: f };
      track = [];
    }
  };
  fixes.forEach(push);
  if (stop) closeStop(stop, false);
  else if (track.length > 0) tripUpTo(track.length - 1, false);
  return out;
}

describe("segment: against a direct reading of the rules", () => {
  it("gives exactly the reference's trips and stops, on random, slow and hovering tracks", () => {
    fc.assert(
      fc.property(withTrack, ([cfg, fixes]) => {
        const usable = usableFixes(fixes, 100);
        expect(segment(usable, cfg)).toEqual(referenceSegment(usable, cfg));
      }),
      { numRuns: 500 },
    );
  });

  it("a straight drive that stops exactly minTripDistance past a point along the track is judged by the great-circle distance", () => {
    // Fixes 50 m apart due north, then a wait 200 m on from the fix four back: the run must not reach that fix.
    const cfg = { ...DEFAULT_MOTION, minTripDistance: 200, minStopDuration: 60 };
    const fixes = usableFixes([...still(0, 300, 0), ...Array.from({ length: 12 }, (_, i) => fix(310 + i * 5, 50 * (i + 1))), ...still(375, 600, 600)], 100);
    expect(segment(fixes, cfg)).toEqual(referenceSegment(fixes, cfg));
  });
});
