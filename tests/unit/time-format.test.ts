import { describe, expect, it } from "vitest";
import { ago, duration, until } from "@/components/share/format";
import { localInputToIso, toLocalInput } from "@/components/ui/local-datetime-input";
import { formatClock, formatLocal, formatRelative, utcText } from "@/components/ui/time";

// The dashboard's and the share page's time phrases: pure functions of the components that show them.

describe("time formatting", () => {
  it("formats in a given zone, relative with and without seconds, and reads local inputs as instants", () => {
    const d = new Date("2026-01-15T12:00:00.000Z");
    expect(formatLocal(d, { seconds: true, timeZone: "America/New_York" })).toMatch(/7:00:00\sAM/);
    expect(formatLocal(d, { timeZone: "Asia/Kolkata" })).toMatch(/5:30\sPM/);
    const now = d.getTime();
    expect(formatRelative(new Date(now - 20_000), now)).toBe("just now");
    expect(formatRelative(new Date(now - 20_000), now, true)).toBe("20 seconds ago");
    expect(formatRelative(new Date(now + 5_000), now, true)).toBe("in 5 seconds");
    expect(formatRelative(new Date(now - 3 * 60_000), now)).toBe("3 minutes ago");
    const local = new Date(2026, 0, 15, 7, 30); // the process's own zone
    expect(toLocalInput(local)).toBe("2026-01-15T07:30");
    expect(localInputToIso("2026-01-15T07:30")).toBe(local.toISOString());
    expect(localInputToIso("")).toBe("");
  });

  it("gives the time of day, with the date when it is another day in that zone", () => {
    const d = new Date("2026-01-15T20:00:00.000Z"); // 1:30 AM on Jan 16 in Kolkata
    expect(formatClock(d, Date.parse("2026-01-15T21:00:00.000Z"), "Asia/Kolkata")).toMatch(/^1:30\sAM$/);
    expect(formatClock(d, Date.parse("2026-01-15T18:00:00.000Z"), "Asia/Kolkata")).toMatch(/^Jan 16, 1:30\sAM$/);
    expect(formatClock(d, Date.parse("2026-01-15T21:00:00.000Z"), "UTC")).toMatch(/^8:00\sPM$/);
  });

  it("renders on the server in UTC, a clock time about as long as the local one that replaces it", () => {
    const d = new Date("2026-01-15T20:05:09.000Z");
    expect(utcText(d)).toBe("15 Jan 2026, 20:05 UTC");
    expect(utcText(d, { seconds: true })).toBe("15 Jan 2026, 20:05:09 UTC");
    expect(utcText(d, { dateOnly: true })).toBe("15 Jan 2026");
    // The date only when it is not today in UTC, as the local clock drops it when it is today in the viewer's zone.
    expect(utcText(d, { clock: true, nowMs: Date.parse("2026-01-15T23:59:00.000Z") })).toBe("20:05 UTC");
    expect(utcText(d, { clock: true, nowMs: Date.parse("2026-01-16T00:01:00.000Z") })).toBe("15 Jan, 20:05 UTC");
  });
});

describe("share page time phrases", () => {
  it("says durations in their largest whole unit", () => {
    expect(duration(0)).toBe("0 seconds");
    expect(duration(1000)).toBe("1 second");
    expect(duration(59_999)).toBe("59 seconds");
    expect(duration(60_000)).toBe("1 minute");
    expect(duration(3 * 3600_000 + 5)).toBe("3 hours");
    expect(duration(2 * 86_400_000)).toBe("2 days");
    expect(ago(10_000, 22_000)).toBe("12 seconds ago");
    expect(ago(10_000, 10_500)).toBe("just now");
    expect(ago(20_000, 10_000)).toBe("just now"); // a device clock ahead of ours
    expect(until(86_400_000, 0)).toBe("in 1 day");
    expect(until(30_000, 0)).toBe("in less than a minute");
  });
});
