import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fix } from "./segment";
import { lowerLimit, speedEpisodes, SpeedTracker, type SpeedEpisode, type SpeedState } from "./speed";

const T0 = Date.UTC(2026, 10, 25, 8, 0, 0);
const at = (s: number, speed: number | null, lat = 52.5): Fix => ({ id: `s${s}`, latitude: lat, longitude: 13.4, time: T0 + s * 1000, accuracy: 5, speed });
const own = (limit: number | null) => () => lowerLimit(limit, []);

describe("speed episodes", () => {
  it("fires once per episode of speedMinDuration above the limit, re-armed below it", () => {
    const speeds = [10, 20, 21, 22, 23, 24, 25, 10, 20, 21, 30, 31, 32];
    const fixes = speeds.map((v, i) => at(i * 3, v));
    const eps = speedEpisodes(fixes, 10, own(15));
    expect(eps.map((e) => [e.startedAt - T0, e.fix.time - T0, e.value, e.limit, e.geofenceId])).toEqual([
      [3000, 15000, 24, 15, null],
      [24000, 36000, 32, 15, null],
    ]);
  });

  it("an episode shorter than speedMinDuration sends nothing; no limit, no episode", () => {
    expect(speedEpisodes([at(0, 20), at(5, 20), at(9, 20), at(12, 5)], 10, own(15))).toEqual([]);
    expect(speedEpisodes([at(0, 99), at(60, 99)], 10, own(null))).toEqual([]);
  });

  it("leg speeds stand in for missing reported speeds", () => {
    // 0.001° of latitude ≈ 111 m every 3 s ≈ 37 m/s.
    const fixes = Array.from({ length: 6 }, (_, i) => at(i * 3, null, 52.5 + i * 0.001));
    expect(speedEpisodes(fixes, 10, own(30))).toHaveLength(1);
  });

  it("the lower of the trackable's and the geofences' limits wins", () => {
    expect(lowerLimit(20, [{ id: "a", speedLimit: 30 }, { id: "b", speedLimit: 8 }, { id: "c", speedLimit: null }])).toEqual({ limit: 8, geofenceId: "b" });
    expect(lowerLimit(5, [{ id: "a", speedLimit: 30 }])).toEqual({ limit: 5, geofenceId: null });
    expect(lowerLimit(null, [])).toBeNull();
  });

  it("each episode is a maximal run above the limit lasting speedMinDuration, reported once at its first qualifying fix", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 40, noNaN: true })), { maxLength: 80 }), fc.integer({ min: 0, max: 60 }), (steps, min) => {
        let s = 0;
        const fixes = steps.map(([dt, v]) => at((s += dt), v));
        const eps = speedEpisodes(fixes, min, own(20));
        // Brute force: runs of consecutive fixes above 20.
        const expected: number[] = [];
        for (let i = 0; i < fixes.length; i++) {
          if (fixes[i]!.speed! <= 20 || (i > 0 && fixes[i - 1]!.speed! > 20)) continue;
          let j = i;
          while (j < fixes.length && fixes[j]!.speed! > 20) {
            if ((fixes[j]!.time - fixes[i]!.time) / 1000 >= min) {
              expected.push(fixes[j]!.time);
              break;
            }
            j++;
          }
        }
        expect(eps.map((e) => e.fix.time)).toEqual(expected);
        for (const e of eps) expect(e.value).toBeGreaterThan(e.limit);
      }),
      { numRuns: 500 },
    );
  });

  it("resumed from its stored state at arbitrary batch boundaries, the same episodes as over all fixes at once", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.option(fc.double({ min: 0, max: 40, noNaN: true }), { freq: 3 }), fc.double({ min: -0.002, max: 0.002, noNaN: true })), { maxLength: 80 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 80 }), { maxLength: 8 }),
        (steps, min, cuts) => {
          let s = 0;
          let lat = 52.5;
          const fixes = steps.map(([dt, v, dlat]) => at((s += dt), v, (lat += dlat)));
          const limit = own(20);
          const bounds = [...new Set([0, ...cuts.map((c) => Math.min(c, fixes.length)), fixes.length])].sort((a, b) => a - b);
          let stored: SpeedState | null = null;
          const got: SpeedEpisode[] = [];
          for (let i = 1; i < bounds.length; i++) {
            const tracker: SpeedTracker = new SpeedTracker(min, stored === null ? null : (JSON.parse(JSON.stringify(stored)) as SpeedState));
            for (const f of fixes.slice(bounds[i - 1], bounds[i])) {
              const e = tracker.push(f, limit());
              if (e) got.push(e);
            }
            stored = tracker.state();
          }
          expect(got).toEqual(speedEpisodes(fixes, min, limit));
        },
      ),
      { numRuns: 500 },
    );
  });
});
