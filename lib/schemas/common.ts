import { z } from "zod";

// Building blocks shared by every resource's schemas.

export const Id = z.uuid().meta({ description: "UUID", example: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55" });

export const Timestamp = z.iso
  .datetime({ precision: 3 })
  .meta({ description: "ISO 8601 UTC date-time with milliseconds", example: "2026-11-22T07:33:55.123Z" });

/** An input timestamp: any ISO 8601 date-time with an offset (or Z), normalised to a Date. */
export const TimestampInput = z.iso
  .datetime({ offset: true, message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T07:33:55.123Z" })
  .transform((s) => new Date(s))
  .meta({ description: "ISO 8601 date-time with time zone", example: "2026-11-22T07:33:55.123Z" });

export const Latitude = z.number().min(-90).max(90).meta({ description: "WGS84 latitude, decimal degrees", example: 52.52 });
export const Longitude = z.number().min(-180).max(180).meta({ description: "WGS84 longitude, decimal degrees", example: 13.405 });

export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
