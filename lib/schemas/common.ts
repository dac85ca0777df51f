import { z } from "zod";

// Building blocks shared by every resource's schemas.

export const Id = z.uuid().meta({ description: "UUID", example: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55" });

export const Timestamp = z.iso
  .datetime({ precision: 3 })
  .meta({ description: "ISO 8601 UTC date-time with milliseconds", example: "2026-11-22T07:33:55.123Z" });

// The instants a timestamp may be: years 0001–9999 in UTC. Postgres has no year 0, and past 9999 a Date's ISO form
// gains a sign and six digits ("+010000-01-01…") that no store parses.
const MIN_TIME = new Date("0001-01-01T00:00:00Z").getTime();
const MAX_TIME = new Date("9999-12-31T23:59:59.999Z").getTime();
export const TIMESTAMP_RANGE_MESSAGE = "must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z";

/** True for a valid Date between 0001-01-01 and 9999-12-31 (UTC). */
export const inTimestampRange = (d: Date): boolean => {
  const t = d.getTime();
  return Number.isFinite(t) && t >= MIN_TIME && t <= MAX_TIME;
};

/** An input timestamp: any ISO 8601 date-time with an offset (or Z), normalised to a Date within years 0001–9999. */
export const TimestampInput = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T07:33:55.123Z" })
  .transform((s) => new Date(s))
  .refine(inTimestampRange, TIMESTAMP_RANGE_MESSAGE)
  .meta({ description: "ISO 8601 date-time with time zone", example: "2026-11-22T07:33:55.123Z" });

export const Latitude = z.number().min(-90).max(90).meta({ description: "WGS84 latitude, decimal degrees", example: 52.52 });
export const Longitude = z.number().min(-180).max(180).meta({ description: "WGS84 longitude, decimal degrees", example: 13.405 });

export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
