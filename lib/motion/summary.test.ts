import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDays } from "./days";
import { DEFAULT_MOTION, segment, type Fix } from "./segment";
import { dailySummary, type SummaryStop, type SummaryTrip } from "./summary";

// The daily summary around daylight-saving changes, against a rule stated here on its own: a local day runs from one
// local midnight to the next, found by looking for the first quarter-hour instant whose calendar date in the zone is
// that day (every offset of these zones is a whole number of quarter hours, so that instant is the midnight itself).

const H = 3600_000;
const ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] as const;
/** The 2026 days on which these zones change their clocks (Kolkata keeps its offset all year). */
const CHANGES = ["2026-03-08", "2026-03-29", "2026-04-05", "2026-10-04", "2026-10-25", "2026-11-01"];

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The calendar date (YYYY-MM-DD) and wall clock (HH:MM:SS) of an instant in a zone. */
function localOf(t: number, zone: string): { date: string; clock: string } {
  let f = dateFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("sv-SE", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    dateFormats.set(zone, f);
  }
  const [date, clock] = f.format(new Date(t)).split(" ");
  return { date: date!, clock: clock! };
}

/** The instant of local midnight starting `date` in `zone`, by search over quarter hours (±15 h of UTC midnight). */
function midnight(date: string, zone: string): number {
  const utc = Date.parse(`${date}T00:00:00Z`);
  for (let t = utc - 15 * H; t <= utc + 15 * H; t += H / 4) {
    if (localOf(t, zone).date === date) {
      expect(localOf(t, zone).clock).toBe("00:00:00");
      return t;
    }
  }
  throw new Error(`no midnight found for ${date} in ${zone}`);
}

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 24 * H).toISOString().slice(0, 10);

/** The local days overlapping [from, to) with their bounds clipped to the range, by the rule above. */
function expectedDays(from: number, to: number, zone: string) {
  const out: { date: string; start: number; end: number; length: number }[] = [];
  for (let date = localOf(from, zone).date; ; date = nextDate(date)) {
    const start = midnight(date, zone);
    if (start >= to) break;
    const end = midnight(nextDate(date), zone);
    out.push({ date, start: Math.max(start, from), end: Math.min(end, to), length: end - start });
  }
  return out;
}

const inside = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** A generated track: parked spells of hours and drives of minutes to hours, from a moment near one of the changes. */
const track = fc
  .record({
    around: fc.constantFrom(...CHANGES),
    offsetMinutes: fc.integer({ min: -36 * 60, max: 36 * 60 }),
    pieces: fc.array(
      fc.record({
        drive: fc.boolean(),
        minutes: fc.integer({ min: 5, max: 8 * 60 }),
        heading: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      }),
      { minLength: 2, maxLength: 10 },
    ),
  })
  .map(({ around, offsetMinutes, pieces }) => {
    const fixes: Fix[] = [];
    let t = Date.parse(`${around}T12:00:00Z`) + offsetMinutes * 60_000;
    let north = 0;
    let east = 0;
    for (const p of pieces) {
      const every = p.drive ? 60_000 : 10 * 60_000;
      for (let m = 0; m < p.minutes; m += every / 60_000) {
        t += every;
        if (p.drive) {
          north += 900 * Math.cos(p.heading);
          east += 900 * Math.sin(p.heading);
        }
        fixes.push({ id: `f${fixes.length}`, latitude: 10 + north / 111_195, longitude: 20 + east / 111_195, accuracy: 10, speed: null, time: t });
      }
    }
    const { trips, stops } = segment(fixes, DEFAULT_MOTION);
    const asTrips: SummaryTrip[] = trips.map((x) => ({
      startedAt: new Date(x.startedAt),
      endedAt: x.endedAt === null ? null : new Date(x.endedAt),
      lastFixAt: new Date(x.lastFixTime),
      distance: x.distance,
      maxSpeed: x.maxSpeed,
    }));
    const asStops: SummaryStop[] = stops.map((s) => ({ startedAt: new Date(s.startedAt), duration: s.duration }));
    return { trips: asTrips, stops: asStops, first: fixes[0]!.time, last: fixes[fixes.length - 1]!.time };
  });

/** The range the summary is asked for: around the track, possibly cutting into it at either end. */
const asked = fc.record({ track, zone: fc.constantFrom(...ZONES), before: fc.integer({ min: -6 * H, max: 30 * H }), after: fc.integer({ min: -6 * H, max: 30 * H }) }).filter(
  ({ track: tr, before, after }) => tr.last + after > tr.first - before,
);

const end = (t: SummaryTrip) => (t.endedAt ?? t.lastFixAt).getTime();

describe("dailySummary across daylight-saving changes", () => {
  it("days run from local midnight to local midnight (23, 23.5, 24, 24.5 or 25 hours), dates in order, none missing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...CHANGES),
        fc.integer({ min: -3 * 24 * H, max: 3 * 24 * H }),
        fc.integer({ min: 1, max: 6 * 24 * H }),
        (zone, around, shift, span) => {
          const from = Date.parse(`${around}T12:00:00Z`) + shift;
          const to = from + span;
          const expected = expectedDays(from, to, zone);
          // A stop over the whole range: each day's stopped time is its length within the range.
          const days = dailySummary([], [{ startedAt: new Date(from), duration: span / 1000 }], from, to, zone);
          expect(days.map((d) => d.date)).toEqual(expected.map((d) => d.date));
          days.forEach((d, i) => expect(d.stoppedSeconds * 1000).toBeCloseTo(expected[i]!.end - expected[i]!.start, 3));
          for (const d of expected) expect([23, 23.5, 24, 24.5, 25]).toContain(d.length / H);
          // The helper's unclipped bounds are the midnights themselves.
          const bounds = localDays(from, to, zone);
          bounds.forEach((b) => {
            expect(b.start).toBe(midnight(b.date, zone));
            expect(b.end).toBe(midnight(nextDate(b.date), zone));
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("each day holds the part of each trip and stop between its midnights, pro rata; the days add up to the totals", () => {
    fc.assert(
      fc.property(asked, ({ track: tr, zone, before, after }) => {
        const from = tr.first - before;
        const to = tr.last + after;
        const days = dailySummary(tr.trips, tr.stops, from, to, zone);
        const expected = expectedDays(from, to, zone);
        expect(days.map((d) => d.date)).toEqual(expected.map((d) => d.date));

        days.forEach((d, i) => {
          const { start, end: stop } = expected[i]!;
          let moving = 0;
          let distance = 0;
          let count = 0;
          for (const t of tr.trips) {
            const [t0, t1] = [t.startedAt.getTime(), end(t)];
            const part = inside(t0, t1, start, stop);
            moving += part;
            if (t1 > t0) distance += (t.distance * part) / (t1 - t0);
            if (t0 >= start && t0 < stop) count++;
          }
          const stopped = tr.stops.reduce((sum, s) => sum + inside(s.startedAt.getTime(), s.startedAt.getTime() + s.duration * 1000, start, stop), 0);
          expect(d.movingSeconds * 1000).toBeCloseTo(moving, 3);
          expect(d.distance).toBeCloseTo(distance, 3);
          expect(d.stoppedSeconds * 1000).toBeCloseTo(stopped, 3);
          expect(d.tripCount).toBe(count);
        });

        // Sums over the days equal the totals over the range.
        const sum = (f: (d: (typeof days)[number]) => number) => days.reduce((a, d) => a + f(d), 0);
        const inRange = tr.trips.map((t) => ({ t, part: inside(t.startedAt.getTime(), end(t), from, to) }));
        expect(sum((d) => d.movingSeconds) * 1000).toBeCloseTo(
          inRange.reduce((a, x) => a + x.part, 0),
          3,
        );
        expect(sum((d) => d.distance)).toBeCloseTo(
          inRange.reduce((a, { t, part }) => a + (end(t) > t.startedAt.getTime() ? (t.distance * part) / (end(t) - t.startedAt.getTime()) : 0), 0),
          3,
        );
        expect(sum((d) => d.tripCount)).toBe(tr.trips.filter((t) => t.startedAt.getTime() >= from && t.startedAt.getTime() < to).length);
        const stoppedTotal = tr.stops.reduce((a, s) => a + inside(s.startedAt.getTime(), s.startedAt.getTime() + s.duration * 1000, from, to), 0);
        expect(sum((d) => d.stoppedSeconds) * 1000).toBeCloseTo(stoppedTotal, 3);
        // A range holding the whole track: the days' distances add up to every trip's whole distance.
        if (before >= 0 && after >= 0) {
          expect(sum((d) => d.distance)).toBeCloseTo(
            tr.trips.reduce((a, t) => a + t.distance, 0),
            3,
          );
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** A trip of `km` from `start` to `stop` (ISO instants). */
const trip = (start: string, stop: string, km: number, maxSpeed = 20): SummaryTrip => ({
  startedAt: new Date(start),
  endedAt: new Date(stop),
  lastFixAt: new Date(stop),
  distance: km * 1000,
  maxSpeed,
});
const stopOver = (start: string, hours: number): SummaryStop => ({ startedAt: new Date(start), duration: hours * 3600 });

describe("dailySummary on the 2026 clock changes", () => {
  const cases: { zone: string; date: string; midnightUtc: string; nextMidnightUtc: string; hours: number }[] = [
    { zone: "Europe/Berlin", date: "2026-03-29", midnightUtc: "2026-03-28T23:00:00Z", nextMidnightUtc: "2026-03-29T22:00:00Z", hours: 23 },
    { zone: "Europe/Berlin", date: "2026-10-25", midnightUtc: "2026-10-24T22:00:00Z", nextMidnightUtc: "2026-10-25T23:00:00Z", hours: 25 },
    { zone: "America/New_York", date: "2026-03-08", midnightUtc: "2026-03-08T05:00:00Z", nextMidnightUtc: "2026-03-09T04:00:00Z", hours: 23 },
    { zone: "America/New_York", date: "2026-11-01", midnightUtc: "2026-11-01T04:00:00Z", nextMidnightUtc: "2026-11-02T05:00:00Z", hours: 25 },
    { zone: "Australia/Lord_Howe", date: "2026-04-05", midnightUtc: "2026-04-04T13:00:00Z", nextMidnightUtc: "2026-04-05T13:30:00Z", hours: 24.5 },
    { zone: "Australia/Lord_Howe", date: "2026-10-04", midnightUtc: "2026-10-03T13:30:00Z", nextMidnightUtc: "2026-10-04T13:00:00Z", hours: 23.5 },
    { zone: "Asia/Kolkata", date: "2026-03-29", midnightUtc: "2026-03-28T18:30:00Z", nextMidnightUtc: "2026-03-29T18:30:00Z", hours: 24 },
  ];

  for (const c of cases) {
    it(`${c.zone} ${c.date}: a ${c.hours}-hour day; trips over its midnights are split there`, () => {
      const m0 = Date.parse(c.midnightUtc);
      const m1 = Date.parse(c.nextMidnightUtc);
      const iso = (t: number) => new Date(t).toISOString();
      // 40 minutes before the day's midnight to 20 after: 12 km, 2:1. The same across the next midnight, 6 km.
      const into = trip(iso(m0 - 40 * 60_000), iso(m0 + 20 * 60_000), 12, 25);
      const outOf = trip(iso(m1 - 30 * 60_000), iso(m1 + 30 * 60_000), 6, 30);
      const parked = stopOver(iso(m0 + 20 * 60_000), (m1 - 30 * 60_000 - (m0 + 20 * 60_000)) / H);
      const from = m0 - 2 * H;
      const to = m1 + 2 * H;
      const days = dailySummary([into, outOf], [parked], from, to, c.zone);
      expect(days.map((d) => d.date)).toEqual([new Date(Date.parse(`${c.date}T00:00:00Z`) - 24 * H).toISOString().slice(0, 10), c.date, nextDate(c.date)]);
      const [before, day, after] = days;
      expect(before).toMatchObject({ movingSeconds: 40 * 60, tripCount: 1, maxSpeed: 25 });
      expect(before!.distance).toBeCloseTo(8000, 6);
      expect(day).toMatchObject({ movingSeconds: 50 * 60, tripCount: 1, maxSpeed: 30 });
      expect(day!.distance).toBeCloseTo(4000 + 3000, 6);
      // Parked from 00:20 to 23:30 local: the day's length less 50 minutes.
      expect(day!.stoppedSeconds).toBe(c.hours * 3600 - 50 * 60);
      expect(day!.movingSeconds + day!.stoppedSeconds).toBe(c.hours * 3600);
      expect(after).toMatchObject({ movingSeconds: 30 * 60, tripCount: 0, stoppedSeconds: 0 });
      expect(after!.distance).toBeCloseTo(3000, 6);
    });
  }
});
