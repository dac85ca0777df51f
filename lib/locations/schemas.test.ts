import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { LocationHistoryQuery, parsePostLocations } from "./schemas";

const messageOf = (body: Record<string, unknown>): string => {
  try {
    parsePostLocations(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("invalid_request");
    return (err as ApiError).message;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be rejected`);
};

describe("parsePostLocations", () => {
  afterEach(() => vi.useRealTimers());

  it("a single location becomes a list of one; a batch keeps its order", () => {
    expect(parsePostLocations({ latitude: 1, longitude: 2 })).toEqual([{ latitude: 1, longitude: 2 }]);
    const batch = parsePostLocations({ locations: [{ latitude: 1, longitude: 1 }, { latitude: 2, longitude: 2, battery: null }] });
    expect(batch.map((l) => l.latitude)).toEqual([1, 2]);
    expect(batch[1]!.battery).toBeNull();
  });

  it('dispatches on "locations": errors come from the shape the client meant, never a union error', () => {
    expect(messageOf({ locations: [{ latitude: 1, longitude: 1 }], latitude: 1 })).toBe('Invalid body: latitude: unknown field "latitude"');
    expect(messageOf({ locations: [{ latitude: 1, longitude: 1 }, { latitude: 91, longitude: 0 }] })).toBe(
      "Invalid body: locations[1].latitude: Too big: expected number to be <=90",
    );
    expect(messageOf({ points: [] })).toBe(
      "Invalid body: latitude: Invalid input: expected number, received undefined; " +
        'longitude: Invalid input: expected number, received undefined; points: unknown field "points"',
    );
    expect(messageOf({ locations: [] })).toBe("Invalid body: locations: must hold 1–1000 locations");
    expect(messageOf({ locations: null })).toBe("Invalid body: locations: Invalid input: expected array, received null");
  });

  it("accepts a timestamp exactly 5 minutes ahead and refuses one millisecond more", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-22T07:00:00.000Z"), toFake: ["Date"] });
    const [edge] = parsePostLocations({ latitude: 0, longitude: 0, timestamp: "2026-11-22T07:05:00.000Z" });
    expect(edge!.timestamp).toEqual(new Date("2026-11-22T07:05:00.000Z"));
    expect(messageOf({ latitude: 0, longitude: 0, timestamp: "2026-11-22T07:05:00.001Z" })).toBe(
      "Invalid body: timestamp: must not be more than 5 minutes in the future",
    );
    expect(messageOf({ locations: [{ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 0, timestamp: "2026-11-22T08:05:00.001+01:00" }] })).toBe(
      "Invalid body: locations[1].timestamp: must not be more than 5 minutes in the future",
    );
  });
});

describe("parsePostLocations: heading and time as the apps round and report them", () => {
  it("a heading of 360 (a course rounded to whole degrees from 359.5°) is stored as 0; above 360 is refused", () => {
    expect(parsePostLocations({ latitude: 0, longitude: 0, heading: 360 })[0]!.heading).toBe(0);
    expect(parsePostLocations({ latitude: 0, longitude: 0, heading: 359.9 })[0]!.heading).toBe(359.9);
    expect(messageOf({ latitude: 0, longitude: 0, heading: 360.5 })).toBe("Invalid body: heading: must be a number between 0 and 360");
  });

  it("refuses a time at or before the epoch (an unset clock) and one beyond any date, never a 500", () => {
    for (const timestamp of ["1970-01-01T00:00:00Z", "1970-01-01T00:59:59+01:00", "0001-01-01T00:00:00Z"]) {
      expect(messageOf({ latitude: 0, longitude: 0, timestamp }), timestamp).toBe("Invalid body: timestamp: must be after 1970-01-01T00:00:00Z");
    }
    expect(parsePostLocations({ latitude: 0, longitude: 0, timestamp: "1970-01-01T00:00:00.001Z" })[0]!.timestamp).toEqual(new Date(1));
    for (const timestamp of ["+275760-09-13T00:00:00.001Z", "275760-09-13T00:00:00.000Z"]) {
      expect(messageOf({ latitude: 0, longitude: 0, timestamp }), timestamp).toMatch(/^Invalid body: timestamp: must be an ISO 8601 date-time/);
    }
  });
});

describe("LocationHistoryQuery", () => {
  it("defaults and coerces", () => {
    expect(LocationHistoryQuery.parse({})).toEqual({ limit: 100, order: "desc" });
    expect(LocationHistoryQuery.parse({ limit: "1000", order: "asc", from: "2026-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" })).toEqual({
      limit: 1000,
      order: "asc",
      from: new Date("2026-01-01T00:00:00Z"),
      to: new Date("2026-01-01T00:00:00Z"),
    });
  });

  it("from after to is an error on from", () => {
    const r = LocationHistoryQuery.safeParse({ from: "2026-01-01T00:00:00.001Z", to: "2026-01-01T00:00:00Z" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["from", "must not be after to"]]);
  });
});

describe("LocationHistoryQuery bounds", () => {
  it("refuses a bound that is no time with that bound's message, beside a valid other bound (it threw a TypeError: a 500)", () => {
    const result = LocationHistoryQuery.safeParse({ from: "0000-01-01T00:00", to: "9999-12-31T23:59:00Z" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join("."))).toContain("from");
    expect(LocationHistoryQuery.safeParse({ from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" }).success).toBe(false);
  });
});
