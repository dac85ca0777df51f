import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTimeZone } from "@/lib/schemas/time-zone";
import { inSchedule, localTime, WEEKDAYS, type Weekday } from "./schedule";

// An oracle that knows nothing of Intl: the UTC offset of a few zones by their published rules, then the schedule as
// windows on a minute-of-week clock.
const HOUR = 3_600_000;
const utcDay = (y: number, m: number, d: number) => Date.UTC(y, m, d);
const lastSunday = (y: number, m: number) => {
  const last = new Date(utcDay(y, m + 1, 0));
  return utcDay(y, m, last.getUTCDate() - last.getUTCDay());
};
const nthSunday = (y: number, m: number, n: number) => {
  const first = new Date(utcDay(y, m, 1)).getUTCDay();
  return utcDay(y, m, 1 + ((7 - first) % 7) + 7 * (n - 1));
};
const OFFSETS: Record<string, (t: number) => number> = {
  UTC: () => 0,
  "Etc/GMT-5": () => 5 * HOUR,
  "Etc/GMT+3": () => -3 * HOUR,
  "Asia/Kolkata": () => 5.5 * HOUR,
  // EU: summer time from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
  "Europe/Berlin": (t) => {
    const y = new Date(t).getUTCFullYear();
    return t >= lastSunday(y, 2) + HOUR && t < lastSunday(y, 9) + HOUR ? 2 * HOUR : HOUR;
  },
  // US since 2007: from 02:00 local (07:00 UTC) on March's second Sunday to 02:00 local (06:00 UTC) on November's first.
  "America/New_York": (t) => {
    const y = new Date(t).getUTCFullYear();
    return t >= nthSunday(y, 2, 2) + 7 * HOUR && t < nthSunday(y, 10, 1) + 6 * HOUR ? -4 * HOUR : -5 * HOUR;
  },
};

function oracle(s: { timeZone: string; days: Weekday[]; from: string; to: string }, at: Date): boolean {
  const local = new Date(at.getTime() + OFFSETS[s.timeZone]!(at.getTime()));
  const minuteOfWeek = ((local.getUTCDay() + 6) % 7) * 1440 + local.getUTCHours() * 60 + local.getUTCMinutes();
  const from = Number(s.from.slice(0, 2)) * 60 + Number(s.from.slice(3));
  const to = Number(s.to.slice(0, 2)) * 60 + Number(s.to.slice(3));
  const length = (to - from + 1440) % 1440 || 1440;
  return s.days.some((d) => {
    const start = WEEKDAYS.indexOf(d) * 1440 + from;
    return (minuteOfWeek - start + 10080) % 10080 < length;
  });
}

const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
const instant = fc.date({ min: new Date("2008-01-01T00:00:00Z"), max: new Date("2037-12-31T00:00:00Z"), noInvalidDate: true });
const days = fc.subarray([...WEEKDAYS]);

describe("inSchedule", () => {
  it("agrees with the zones' published offset rules, across DST changes and midnight", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(OFFSETS)), days, hhmm, hhmm, instant, (timeZone, d, from, to, at) => {
        const s = { timeZone, days: d, from, to };
        expect(inSchedule(s, at)).toBe(oracle(s, at));
      }),
      { numRuns: 3000 },
    );
  });

  it("around each DST change, minute by minute", () => {
    const changes = [
      ["Europe/Berlin", "2026-03-29T00:00:00Z"],
      ["Europe/Berlin", "2026-10-25T00:00:00Z"],
      ["America/New_York", "2026-03-08T05:00:00Z"],
      ["America/New_York", "2026-11-01T04:00:00Z"],
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...changes), fc.integer({ min: 0, max: 4 * 60 }), days, hhmm, hhmm, ([timeZone, start], minute, d, from, to) => {
        const at = new Date(Date.parse(start) + minute * 60_000);
        const s = { timeZone, days: d, from, to };
        expect(inSchedule(s, at)).toBe(oracle(s, at));
      }),
      { numRuns: 3000 },
    );
  });

  it("every day from A to B and from B to A cover each instant exactly once, in any zone", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    fc.assert(
      fc.property(fc.constantFrom(...zones), hhmm, hhmm, instant, (timeZone, a, b, at) => {
        fc.pre(a !== b);
        const all = [...WEEKDAYS];
        expect(inSchedule({ timeZone, days: all, from: a, to: b }, at)).not.toBe(inSchedule({ timeZone, days: all, from: b, to: a }, at));
      }),
      { numRuns: 2000 },
    );
  });

  it("a window spanning midnight belongs to the day it starts on", () => {
    const friNight = { timeZone: "Europe/Berlin", days: ["fri"] as Weekday[], from: "22:00", to: "06:00" };
    expect(inSchedule(friNight, new Date("2026-11-27T22:30:00Z"))).toBe(true); // Fri 23:30 local
    expect(inSchedule(friNight, new Date("2026-11-28T04:59:00Z"))).toBe(true); // Sat 05:59 local
    expect(inSchedule(friNight, new Date("2026-11-28T05:00:00Z"))).toBe(false); // Sat 06:00 local
    expect(inSchedule(friNight, new Date("2026-11-26T23:30:00Z"))).toBe(false); // Fri 00:30 local: Thursday's night
  });

  it("the hour a spring-forward skips never matches; the hour a fall-back repeats matches twice", () => {
    const s = { timeZone: "Europe/Berlin", days: ["sun"] as Weekday[], from: "02:00", to: "03:00" };
    const inside = (start: string) =>
      Array.from({ length: 24 * 60 }, (_, i) => new Date(Date.parse(start) + i * 60_000)).filter((at) => inSchedule(s, at)).length;
    expect(inside("2026-03-28T23:00:00Z")).toBe(0);
    expect(inside("2026-10-24T22:00:00Z")).toBe(120);
  });

  it("no schedule is always; no days is never; from = to is 24 hours from then", () => {
    const at = new Date("2026-11-25T12:00:00Z");
    expect(inSchedule(null, at)).toBe(true);
    expect(inSchedule({ timeZone: "UTC", days: [], from: "00:00", to: "00:00" }, at)).toBe(false);
    expect(inSchedule({ timeZone: "UTC", days: ["wed"], from: "00:00", to: "00:00" }, at)).toBe(true);
    expect(inSchedule({ timeZone: "UTC", days: ["tue"], from: "13:00", to: "13:00" }, at)).toBe(true);
    expect(inSchedule({ timeZone: "UTC", days: ["tue"], from: "12:00", to: "12:00" }, at)).toBe(false);
  });
});

describe("localTime and isTimeZone", () => {
  it("reads the wall clock of the zone", () => {
    expect(localTime(new Date("2026-07-01T12:03:00Z"), "Europe/Berlin")).toMatchObject({ day: "wed", hhmm: "14:03" });
    expect(localTime(new Date("2026-01-01T00:00:00Z"), "America/New_York")).toMatchObject({ day: "wed", hhmm: "19:00" });
  });
  it("knows IANA zones and refuses others", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});
