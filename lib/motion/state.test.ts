import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_MOTION, type Fix, Segmenter } from "./segment";
import { decodeMotionState, encodeMotionState, type MotionState } from "./state";

const T0 = Date.UTC(2026, 10, 25, 8, 0, 0);
const stripped = (f: Fix): Fix => ({ ...f, id: "", accuracy: null });

/** A drive north at `v` m/s with fixes every `every` seconds and a reported speed on every other one. */
const drive = (n: number, v: number, every: number, jitter: readonly number[]): Fix[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `f${i}`,
    latitude: 52 + (i * v * every + (jitter[i % jitter.length] ?? 0)) / 111_195,
    longitude: 13.4 + (jitter[(i + 1) % jitter.length] ?? 0) / 68_000,
    time: T0 + i * every * 1000,
    accuracy: 12,
    speed: i % 2 === 0 ? v : null,
  }));

describe("motion state: stored form", () => {
  it("reads back as the state it was made from, measures bit for bit, the fixes without id and accuracy", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.double({ min: 0.5, max: 40, noNaN: true }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.double({ min: -30, max: 30, noNaN: true }), { minLength: 1, maxLength: 7 }),
        (n, v, every, jitter) => {
          const m = new Segmenter(DEFAULT_MOTION);
          const fixes = drive(n, v, every, jitter);
          for (const f of fixes) m.push(f);
          const open = m.state()!;
          const last = fixes.at(-1)!;
          const state: MotionState = { at: last.time + 1, tie: { latitude: last.latitude, longitude: last.longitude, id: "0190f0c2-8a6b-7000-8000-0000000000a1", count: n % 3 + 1 }, basis: JSON.stringify([DEFAULT_MOTION, 100]), open, speed: { prev: fixes.at(-1)!, startedAt: T0, fired: true }, trip: open.kind === "trip" ? { id: "0190f0c2-8a6b-7000-8000-000000000001", startedSent: true, endedSent: n % 2 === 0 } : null };
          const back = decodeMotionState(JSON.parse(JSON.stringify(encodeMotionState(state))));
          const expected: MotionState =
            open.kind === "stop"
              ? { ...state, open: { ...open, last: stripped(open.last) }, speed: { ...state.speed, prev: stripped(state.speed.prev!) } }
              : {
                  ...state,
                  open: { ...open, first: stripped(open.first), tail: open.tail.map((p) => ({ ...p, fix: stripped(p.fix) })) },
                  speed: { ...state.speed, prev: stripped(state.speed.prev!) },
                };
          expect(back).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a state stored in another format reads as none (the round recomputes from the last stop)", () => {
    const older = { v: 2, at: T0, basis: "[]", open: { kind: "stop", startedAt: T0, anchor: { latitude: 52, longitude: 13 }, anchorAt: T0, last: {} }, speed: {} };
    expect(decodeMotionState(older)).toBeNull();
    expect(decodeMotionState(null)).toBeNull();
  });

  it("an open trip's tail of 37 points is stored in under 2.2 KB", () => {
    const m = new Segmenter(DEFAULT_MOTION);
    const fixes = drive(300, 5.5, 2, [0.3, -1.7, 2.9]);
    for (const f of fixes) m.push(f);
    const open = m.state()!;
    expect(open.kind === "trip" && open.tail.length).toBe(37);
    const stored = JSON.stringify(encodeMotionState({ at: T0, tie: { latitude: fixes.at(-1)!.latitude, longitude: fixes.at(-1)!.longitude, id: "0190f0c2-8a6b-7000-8000-0000000000a1", count: 1 }, basis: JSON.stringify([DEFAULT_MOTION, 100]), open, speed: { prev: fixes.at(-1)!, startedAt: null, fired: false }, trip: { id: "0190f0c2-8a6b-7000-8000-000000000001", startedSent: true, endedSent: false } }));
    expect(stored.length).toBeLessThan(2200);
  });
});
