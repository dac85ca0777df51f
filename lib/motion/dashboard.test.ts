import { describe, expect, it } from "vitest";
import { motionState, speedSeries, thinSpeeds } from "./dashboard";

const at = (s: number) => new Date(Date.UTC(2026, 0, 15, 12, 0, s)).toISOString();

describe("speedSeries", () => {
  it("takes a fix's reported speed in km/h, else the leg that led to it", () => {
    const north = (m: number) => 52.5 + m / 111_195; // metres north along a meridian
    const series = speedSeries([
      { latitude: north(0), longitude: 13.4, speed: null, timestamp: at(0) },
      { latitude: north(200), longitude: 13.4, speed: null, timestamp: at(20) },
      { latitude: north(400), longitude: 13.4, speed: 5, timestamp: at(40) },
      { latitude: north(400), longitude: 13.4, speed: null, timestamp: at(40) },
    ]);
    expect(series.map((s) => s.at)).toEqual([at(0), at(20), at(40), at(40)].map(Date.parse));
    expect(series[0]!.kmh).toBe(0);
    expect(series[1]!.kmh).toBeCloseTo(36, 1); // 200 m in 20 s
    expect(series[2]!.kmh).toBeCloseTo(18, 6); // 5 m/s reported
    expect(series[3]!.kmh).toBe(0); // no time between the fixes: no speed from the leg
  });
});

describe("motionState", () => {
  const d = (s: number) => new Date(at(s));
  it("is moving since the start of an open trip", () => {
    expect(motionState({ tripStatus: "ongoing", tripStartedAt: d(10), tripEndedAt: null, stopStartedAt: d(0) })).toEqual({ state: "moving", since: at(10) });
  });
  it("is stopped since the later of the newest stop's start and the newest trip's end", () => {
    expect(motionState({ tripStatus: "completed", tripStartedAt: d(10), tripEndedAt: d(30), stopStartedAt: d(30) })).toEqual({ state: "stopped", since: at(30) });
    // A trip cut by a gap in the fixes ends without a stop after it: stopped since the trip's end.
    expect(motionState({ tripStatus: "completed", tripStartedAt: d(10), tripEndedAt: d(30), stopStartedAt: d(0) })).toEqual({ state: "stopped", since: at(30) });
    expect(motionState({ tripStatus: null, tripStartedAt: null, tripEndedAt: null, stopStartedAt: d(5) })).toEqual({ state: "stopped", since: at(5) });
  });
  it("says nothing for a trackable with neither trips nor stops", () => {
    expect(motionState({ tripStatus: null, tripStartedAt: null, tripEndedAt: null, stopStartedAt: null })).toBeNull();
  });
});

describe("thinSpeeds", () => {
  it("keeps a short series whole and thins a long one to runs' fastest samples, peaks included", () => {
    const short = [{ at: 0, kmh: 1 }];
    expect(thinSpeeds(short, 10)).toBe(short);
    const long = Array.from({ length: 1000 }, (_, i) => ({ at: i * 1000, kmh: i === 537 ? 120 : 30 }));
    const thin = thinSpeeds(long, 100);
    expect(thin).toHaveLength(100);
    expect(thin.filter((s) => s.kmh === 120)).toEqual([{ at: 537_000, kmh: 120 }]);
    expect(thin[0]!.at).toBe(0);
    expect(thin.every((s, i) => i === 0 || s.at > thin[i - 1]!.at)).toBe(true);
  });
});
