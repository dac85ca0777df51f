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

// The window's edges and the zones whose clocks jump at midnight, by 30 minutes, or over a whole day.
const FIXED_OFFSET_MINUTES: Record<string, number> = { UTC: 0, "Etc/GMT-5": 300, "Etc/GMT+3": -180, "Asia/Kolkata": 330, "Asia/Kathmandu": 345 };

/** Minutes in [start, start + hours) that the schedule holds. */
const minutesInside = (s: Parameters<typeof inSchedule>[0], start: string, hours: number) =>
  Array.from({ length: hours * 60 }, (_, i) => new Date(Date.parse(start) + i * 60_000)).filter((at) => inSchedule(s, at)).length;

describe("inSchedule at the window's edges", () => {
  it("starts at `from` (inclusive) and ends at `to` (exclusive) on the listed day's wall clock, midnight-spanning or not", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FIXED_OFFSET_MINUTES)),
        fc.integer({ min: 0, max: 365 * 29 }),
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 1, max: 1439 }),
        (timeZone, dayNumber, from, length) => {
          // Local midnight of the day, as an instant; its weekday from the calendar (1 Jan 2008 was a Tuesday).
          const midnight = Date.UTC(2008, 0, 1 + dayNumber) - FIXED_OFFSET_MINUTES[timeZone]! * 60_000;
          const day = WEEKDAYS[(1 + dayNumber) % 7]!;
          const clock = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
          const s = { timeZone, days: [day], from: clock(from), to: clock((from + length) % 1440) };
          const at = (minute: number) => new Date(midnight + minute * 60_000);
          expect(inSchedule(s, at(from))).toBe(true);
          expect(inSchedule(s, at(from + length - 1))).toBe(true);
          expect(inSchedule(s, at(from - 1))).toBe(false);
          expect(inSchedule(s, at(from + length))).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("every day from T to T (24 hours) holds every instant in every zone, its jumps at midnight included", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    fc.assert(
      fc.property(fc.constantFrom(...zones), hhmm, instant, (timeZone, t, at) => {
        expect(inSchedule({ timeZone, days: [...WEEKDAYS], from: t, to: t }, at)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("Santiago, whose clock skips or repeats the hour at midnight: a night window is 3 or 5 hours long then", () => {
    // 6 Sep 2026: Saturday 24:00 is Sunday 01:00. 5 Apr 2026: Sunday 00:00 is Saturday 23:00 again.
    expect(minutesInside({ timeZone: "America/Santiago", days: ["sat"], from: "22:00", to: "02:00" }, "2026-09-05T12:00:00Z", 24)).toBe(180);
    expect(minutesInside({ timeZone: "America/Santiago", days: ["sun"], from: "00:00", to: "01:00" }, "2026-09-05T12:00:00Z", 24)).toBe(0);
    expect(minutesInside({ timeZone: "America/Santiago", days: ["sat"], from: "23:00", to: "00:30" }, "2026-04-04T12:00:00Z", 24)).toBe(150);
    expect(minutesInside({ timeZone: "America/Santiago", days: ["sat"], from: "22:00", to: "02:00" }, "2026-04-04T12:00:00Z", 24)).toBe(300);
  });

  it("Lord Howe Island, whose clock moves by 30 minutes: the skipped half hour never matches, the repeated one twice", () => {
    // 4 Oct 2026: 02:00 is 02:30. 5 Apr 2026: 02:00 is 01:30 again.
    expect(minutesInside({ timeZone: "Australia/Lord_Howe", days: ["sun"], from: "02:00", to: "02:30" }, "2026-10-03T06:00:00Z", 24)).toBe(0);
    expect(minutesInside({ timeZone: "Australia/Lord_Howe", days: ["sun"], from: "01:00", to: "03:00" }, "2026-10-03T06:00:00Z", 24)).toBe(90);
    expect(minutesInside({ timeZone: "Australia/Lord_Howe", days: ["sun"], from: "01:30", to: "02:00" }, "2026-04-04T06:00:00Z", 24)).toBe(60);
    expect(minutesInside({ timeZone: "Australia/Lord_Howe", days: ["sun"], from: "01:00", to: "03:00" }, "2026-04-04T06:00:00Z", 24)).toBe(150);
  });

  it("Samoa, which skipped Friday 30 Dec 2011: a Friday schedule held nothing that week, Saturday's the whole day", () => {
    expect(minutesInside({ timeZone: "Pacific/Apia", days: ["fri"], from: "00:00", to: "00:00" }, "2011-12-29T00:00:00Z", 72)).toBe(0);
    expect(minutesInside({ timeZone: "Pacific/Apia", days: ["sat"], from: "00:00", to: "00:00" }, "2011-12-29T00:00:00Z", 72)).toBe(1440);
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
