import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDays } from "./days";

const H = 3600_000;

describe("localDays", () => {
  it("splits at local midnight; the spring-forward day has 23 hours, the fall-back day 25", () => {
    const days = localDays(Date.parse("2026-03-28T00:00:00Z"), Date.parse("2026-03-31T00:00:00Z"), "Europe/Berlin");
    expect(days.map((d) => [d.date, (d.end - d.start) / H])).toEqual([
      ["2026-03-28", 24],
      ["2026-03-29", 23],
      ["2026-03-30", 24],
      ["2026-03-31", 24],
    ]);
    expect(new Date(days[0]!.start).toISOString()).toBe("2026-03-27T23:00:00.000Z");
    const nov = localDays(Date.parse("2026-11-01T12:00:00Z"), Date.parse("2026-11-01T13:00:00Z"), "America/New_York");
    expect(nov.map((d) => [d.date, (d.end - d.start) / H])).toEqual([["2026-11-01", 25]]);
  });

  it("a zone whose DST change skips midnight starts that day at the end of the gap", () => {
    // Chile moves from 24:00 to 01:00 on the first Sunday of September (2026-09-06).
    const [day] = localDays(Date.parse("2026-09-06T12:00:00Z"), Date.parse("2026-09-06T13:00:00Z"), "America/Santiago");
    expect(day!.date).toBe("2026-09-06");
    expect((day!.end - day!.start) / H).toBe(23);
  });

  const zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Santiago", "Pacific/Apia"];
  it("days tile the range: consecutive dates, each 23–25 h, starting at a local midnight or gap end", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2030-01-01T00:00:00Z") }),
        fc.integer({ min: 1, max: 40 * 24 * H }),
        fc.constantFrom(...zones),
        (from, span, zone) => {
          const days = localDays(from, from + span, zone);
          expect(days[0]!.start).toBeLessThanOrEqual(from);
          expect(days[days.length - 1]!.end).toBeGreaterThan(from + span - 1);
          for (let i = 0; i < days.length; i++) {
            const d = days[i]!;
            const hours = (d.end - d.start) / H;
            expect(hours).toBeGreaterThanOrEqual(22.5); // Lord Howe's half-hour change
            expect(hours).toBeLessThanOrEqual(25);
            if (i > 0) {
              expect(d.start).toBe(days[i - 1]!.end);
              expect(Date.parse(d.date) - Date.parse(days[i - 1]!.date)).toBe(24 * H);
            }
            const local = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(d.start));
            expect(local).toBe(d.date);
            const before = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(d.start - 1000));
            expect(before < d.date).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
