import { describe, expect, it } from "vitest";
import { overland } from "./overland";

// A feature as Overland for iOS sends it: course as (int)round(course), battery_level 0–1.
const feature = (properties: Record<string, unknown>) => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [-122.030581, 37.331800] },
  properties: { timestamp: new Date().toISOString(), altitude: 0, speed: 4, horizontal_accuracy: 30, vertical_accuracy: -1, course: 90, battery_level: 0.8, ...properties },
});

describe("overland format", () => {
  it("a course of 360 is stored as heading 0, never skipped", () => {
    expect(overland.points([feature({ course: 360 })])).toEqual([expect.objectContaining({ heading: 0, speed: 4 })]);
  });

  it("a point with a field other than its position or time out of range is stored with that field unknown", () => {
    const [point] = overland.points([feature({ course: 400, battery_level: 1.5, altitude: -30_000 })]);
    expect(point).toMatchObject({ latitude: 37.3318, longitude: -122.030581, heading: null, battery: null, altitude: null, speed: 4, accuracy: 30 });
  });

  it("skips a point without a valid position or time, and one dated at or before 1970 or beyond any date", () => {
    const skipped = [
      feature({ timestamp: "1970-01-01T00:00:00Z" }),
      feature({ timestamp: "0000-01-01T00:00:00Z" }),
      feature({ timestamp: "+275760-09-13T00:00:00.001Z" }),
      feature({ horizontal_accuracy: -1 }),
      { ...feature({}), geometry: { type: "Point", coordinates: [-122, 91] } },
    ];
    expect(overland.points([...skipped, feature({ course: 45 })])).toEqual([expect.objectContaining({ heading: 45 })]);
  });
});
