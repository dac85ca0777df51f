import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Latitude, Longitude, Timestamp, TimestampInput } from "@/lib/schemas/common";

export const MAX_BATCH = 1000;
export const MAX_FUTURE_MS = 5 * 60 * 1000;

export const Location = z
  .object({
    id: Id,
    trackableId: Id,
    latitude: z.number(),
    longitude: z.number(),
    accuracy: z.number().nullable().meta({ description: "Horizontal accuracy radius, metres" }),
    altitude: z.number().nullable().meta({ description: "Metres above sea level" }),
    speed: z.number().nullable().meta({ description: "Metres per second" }),
    heading: z.number().nullable().meta({ description: "Degrees clockwise from north, [0, 360)" }),
    battery: z.number().nullable().meta({ description: "Battery level, percent" }),
    timestamp: Timestamp.meta({ description: "When the position was recorded" }),
    receivedAt: Timestamp.meta({ description: "When Fenceline received it" }),
  })
  .meta({ id: "Location" });
export type Location = z.infer<typeof Location>;

export const LocationInput = z
  .strictObject({
    latitude: Latitude,
    longitude: Longitude,
    accuracy: z.number().min(0).max(1_000_000).nullable().optional().meta({ description: "Metres" }),
    altitude: z.number().min(-20_000).max(1_000_000).nullable().optional().meta({ description: "Metres" }),
    speed: z.number().min(0).max(100_000).nullable().optional().meta({ description: "Metres per second" }),
    heading: z.number().min(0).lt(360).nullable().optional().meta({ description: "Degrees, [0, 360)" }),
    battery: z.number().min(0).max(100).nullable().optional().meta({ description: "Percent, [0, 100]" }),
    timestamp: TimestampInput.optional().meta({
      description: "When the position was recorded; default: the time it is received. At most 5 minutes in the future.",
    }),
  })
  .meta({ id: "LocationInput" });
export type LocationInput = z.infer<typeof LocationInput>;

export const LocationBatchInput = z
  .strictObject({
    locations: z.array(LocationInput).min(1).max(MAX_BATCH).meta({ description: `1–${MAX_BATCH} locations` }),
  })
  .meta({ id: "LocationBatchInput" });

/** POST /trackables/{id}/locations accepts one location or {"locations": [...]}. */
export const PostLocationsInput = z.union([LocationBatchInput, LocationInput]);

export const LocationList = z.object({ data: z.array(Location) }).meta({ id: "LocationList" });
export const LocationPage = pageOf(Location, "LocationPage");

export const LocationHistoryQuery = z.object({
  from: TimestampInput.optional().meta({ description: "Inclusive lower bound on timestamp" }),
  to: TimestampInput.optional().meta({ description: "Inclusive upper bound on timestamp" }),
  limit: limitParam(1000, 100),
  cursor: cursorParam,
  order: z.enum(["desc", "asc"]).default("desc").meta({ description: "desc (newest first, default) or asc" }),
});
