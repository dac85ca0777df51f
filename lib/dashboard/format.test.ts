import { describe, expect, it } from "vitest";
import { formatDuration, formatKm, formatKmh } from "./format";

describe("motion formats", () => {
  it("says how long in seconds, minutes, or hours and minutes", () => {
    expect(formatDuration(0)).toBe("0 s");
    expect(formatDuration(42.4)).toBe("42 s");
    expect(formatDuration(360)).toBe("6 min");
    expect(formatDuration(3599)).toBe("1 h 00 min");
    expect(formatDuration(3900)).toBe("1 h 05 min");
    expect(formatDuration(-5)).toBe("0 s");
  });

  it("gives distances in km and speeds in km/h", () => {
    expect(formatKm(5400)).toBe("5.4 km");
    expect(formatKm(12_345)).toBe("12.3 km");
    expect(formatKm(250)).toBe("0.25 km");
    expect(formatKmh(15)).toBe("54 km/h");
    expect(formatKmh(0)).toBe("0 km/h");
  });
});
