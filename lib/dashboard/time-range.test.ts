import { describe, expect, it } from "vitest";
import { relativeTime } from "./format";
import { parseTimeRange, parseUtcInput, rangeKey, rangeQuery } from "./time-range";

const now = new Date("2026-11-22T12:00:30.000Z");

describe("parseTimeRange", () => {
  it("reads the presets and defaults to the last 24 hours", () => {
    const hour = parseTimeRange({ range: "1h" }, now);
    expect(hour).toMatchObject({ preset: "1h", from: new Date("2026-11-22T11:00:30.000Z") });
    expect(hour.to).toBeUndefined();
    expect(parseTimeRange({ range: "7d" }, now).from).toEqual(new Date("2026-11-15T12:00:30.000Z"));
    expect(parseTimeRange({}, now)).toMatchObject({ preset: "24h", from: new Date("2026-11-21T12:00:30.000Z") });
    expect(parseTimeRange({ range: "bogus" }, now).preset).toBe("24h");
  });

  it("reads a custom range of UTC instants (or UTC minutes), the end minute included, the end optional", () => {
    const r = parseTimeRange({ range: "custom", from: "2026-11-20T08:00", to: "2026-11-20T10:15" }, now);
    expect(r).toMatchObject({ preset: "custom", fromInput: "2026-11-20T08:00:00.000Z", toInput: "2026-11-20T10:15:00.000Z" });
    // What the picker sends: the instants of the viewer's local minutes.
    const iso = parseTimeRange({ range: "custom", from: "2026-11-20T03:00:00.000Z", to: "2026-11-20T05:15:00.000Z" }, now);
    expect(iso.from).toEqual(new Date("2026-11-20T03:00:00.000Z"));
    expect(iso.to).toEqual(new Date("2026-11-20T05:15:59.999Z"));
    expect(r.error).toBeUndefined();
    expect(r.from).toEqual(new Date("2026-11-20T08:00:00.000Z"));
    expect(r.to).toEqual(new Date("2026-11-20T10:15:59.999Z"));
    const open = parseTimeRange({ range: "custom", from: "2026-11-20T08:00", to: "" }, now);
    expect(open.preset).toBe("custom");
    expect(open.to).toBeUndefined();
  });

  it("falls back to the default with a reason for a bad custom range, keeping what was typed", () => {
    expect(parseTimeRange({ range: "custom", from: "yesterday" }, now)).toMatchObject({ preset: "24h", error: "Enter a valid start date and time.", fromInput: "yesterday" });
    expect(parseTimeRange({ range: "custom", from: "2026-11-20T08:00", to: "2026-11-19T08:00" }, now)).toMatchObject({
      preset: "24h",
      error: "The start must be before the end.",
    });
    expect(parseTimeRange({ range: "custom", from: "2026-11-20T08:00", to: "soon" }, now).error).toMatch(/valid end/);
    expect(parseUtcInput("2026-02-30T08:00")).not.toBeNull(); // rolled over by Date, still a valid instant
    expect(parseUtcInput("2026-13-40T99:99")).toBeNull();
  });
});

describe("relativeTime", () => {
  it("says just now, minutes, hours, days, and the future", () => {
    expect(relativeTime(new Date(now.getTime() - 10_000), now)).toBe("just now");
    expect(relativeTime(new Date(now.getTime() - 5 * 60_000), now)).toBe("5 minutes ago");
    expect(relativeTime(new Date(now.getTime() - 3 * 3600_000), now)).toBe("3 hours ago");
    expect(relativeTime(new Date(now.getTime() - 24 * 3600_000), now)).toBe("yesterday");
    expect(relativeTime(new Date(now.getTime() + 2 * 60_000), now)).toBe("in 2 minutes");
  });
});

describe("rangeQuery", () => {
  const now = new Date("2026-11-22T10:00:00.000Z");
  it("names a preset, or the custom bounds as the URL carried them", () => {
    expect(rangeQuery(parseTimeRange({ range: "7d" }, now)).toString()).toBe("range=7d");
    expect(rangeQuery(parseTimeRange({}, now)).toString()).toBe("range=24h");
    const custom = parseTimeRange({ range: "custom", from: "2026-11-22T07:30:00.000Z", to: "2026-11-22T08:00:00.000Z" }, now);
    expect(Object.fromEntries(rangeQuery(custom))).toEqual({ range: "custom", from: "2026-11-22T07:30:00.000Z", to: "2026-11-22T08:00:00.000Z" });
    expect(Object.fromEntries(rangeQuery(parseTimeRange({ range: "custom", from: "2026-11-22T07:30:00.000Z" }, now)))).toEqual({ range: "custom", from: "2026-11-22T07:30:00.000Z" });
  });
});

describe("rangeKey", () => {
  const later = new Date(now.getTime() + 90_000);

  it("is the same for two renders of one preset a clock tick apart, though its bounds moved", () => {
    const [a, b] = [parseTimeRange({ range: "1h" }, now), parseTimeRange({ range: "1h" }, later)];
    expect(a.fromInput).not.toBe(b.fromInput);
    expect(rangeKey(a)).toBe(rangeKey(b));
    expect(rangeKey(parseTimeRange({}, now))).toBe(rangeKey(parseTimeRange({ range: "24h" }, later)));
  });

  it("differs between presets, custom bounds, and what an invalid custom range held", () => {
    const keys = [
      parseTimeRange({ range: "1h" }, now),
      parseTimeRange({ range: "7d" }, now),
      parseTimeRange({ range: "custom", from: "2026-11-20T08:00:00.000Z" }, now),
      parseTimeRange({ range: "custom", from: "2026-11-20T08:00:00.000Z", to: "2026-11-20T09:00:00.000Z" }, now),
      parseTimeRange({ range: "custom", from: "2026-11-20T09:00:00.000Z" }, now),
      parseTimeRange({ range: "custom", from: "yesterday" }, now),
      parseTimeRange({ range: "custom", from: "tomorrow" }, now),
    ].map(rangeKey);
    expect(new Set(keys).size).toBe(keys.length);
    // A custom range is keyed by its bounds only: the same at any time.
    const custom = { range: "custom", from: "2026-11-20T08:00:00.000Z", to: "2026-11-20T09:00:00.000Z" };
    expect(rangeKey(parseTimeRange(custom, now))).toBe(rangeKey(parseTimeRange(custom, later)));
  });
});
