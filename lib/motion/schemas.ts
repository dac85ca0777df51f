import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Latitude, Longitude, Timestamp, TimestampInput } from "@/lib/schemas/common";
import { isTimeZone } from "@/lib/schemas/time-zone";

// Trips, stops, speed settings and the daily summary: the one source of validation, types and OpenAPI.

const Metres = (description: string) => z.number().min(1, "must be between 1 and 100000").max(100_000, "must be between 1 and 100000").meta({ description });
const Seconds = (max: number, description: string) =>
  z.number().int(`must be an integer between 0 and ${max}`).min(0, `must be an integer between 0 and ${max}`).max(max, `must be an integer between 0 and ${max}`).meta({ description });
export const SpeedLimit = z.number().gt(0, "must be a positive number (m/s) or null").max(1000, "must be at most 1000 m/s").nullable();

export const MotionSettingsSchema = z
  .object({
    minTripDistance: z.number().meta({ description: "Metres from the stop's position that start a trip (default 200)" }),
    minStopDuration: z.number().int().meta({ description: "Seconds within minTripDistance of the latest fix that make a stop (default 180)" }),
    stopGap: z.number().int().meta({ description: "Seconds without a fix that end a trip at its last fix before the gap (default 3600)" }),
    speedLimit: z.number().nullable().meta({ description: "m/s above which speed.exceeded is sent; null = none (default)" }),
    speedMinDuration: z.number().int().meta({ description: "Seconds above the limit that make one speed.exceeded episode (default 10)" }),
  })
  .meta({ id: "MotionSettings", description: "How trips, stops and speed episodes are found for this trackable" });

export const MotionSettingsPatch = z
  .strictObject({
    minTripDistance: Metres("Metres, 1–100000").optional(),
    minStopDuration: Seconds(86_400, "Seconds, 0–86400").optional(),
    stopGap: Seconds(7 * 86_400, "Seconds, 0–604800").optional(),
    speedLimit: SpeedLimit.optional().meta({ description: "m/s, or null for none" }),
    speedMinDuration: Seconds(3600, "Seconds, 0–3600").optional(),
  })
  .meta({ id: "MotionSettingsPatch", description: "The motion settings to change; the others keep their values" });
export type MotionSettingsPatch = z.infer<typeof MotionSettingsPatch>;

const Position = z.object({ latitude: Latitude, longitude: Longitude }).meta({ id: "Position" });

export const Trip = z
  .object({
    id: Id,
    trackableId: Id,
    status: z.enum(["ongoing", "completed"]),
    startedAt: Timestamp.meta({ description: "The time of the stop's last fix, where the trip's track begins" }),
    endedAt: Timestamp.nullable().meta({ description: "The first fix of the stop that ended it (the last fix before a stopGap); null while ongoing" }),
    start: Position,
    end: Position.nullable(),
    distance: z.number().meta({ description: "Metres: the sum of great-circle legs between the trip's fixes" }),
    duration: z.number().meta({ description: "Seconds (to the newest fix while ongoing)" }),
    maxSpeed: z.number().meta({ description: "m/s: the larger of reported speeds and leg speeds" }),
    averageSpeed: z.number().meta({ description: "m/s: distance / duration (0 for a trip of no duration)" }),
    pointCount: z.number().int(),
  })
  .meta({ id: "Trip" });
export type Trip = z.infer<typeof Trip>;

export const Stop = z
  .object({
    trackableId: Id,
    startedAt: Timestamp,
    endedAt: Timestamp.nullable().meta({ description: "null while the trackable is still stopped there" }),
    latitude: Latitude,
    longitude: Longitude,
    duration: z.number().meta({ description: "Seconds (to the newest fix while ongoing)" }),
    geofenceIds: z.array(Id).meta({ description: "The geofences containing the stop's position" }),
  })
  .meta({ id: "Stop" });
export type Stop = z.infer<typeof Stop>;

const QueryTime = TimestampInput;
export const TripListQuery = z.object({
  trackableId: Id.optional().meta({ description: "Only this trackable's trips" }),
  status: z.enum(["ongoing", "completed"]).optional(),
  from: QueryTime.optional().meta({ description: "Trips ending at or after this time (ongoing ones count as not ended)" }),
  to: QueryTime.optional().meta({ description: "Trips starting at or before this time" }),
  limit: limitParam(100, 20),
  cursor: cursorParam,
});
export type TripListQuery = z.infer<typeof TripListQuery>;
export const TripPage = pageOf(Trip, "TripPage");

export const StopListQuery = z.object({
  trackableId: Id.optional().meta({ description: "Only this trackable's stops" }),
  from: QueryTime.optional().meta({ description: "Stops ending at or after this time (ongoing ones count as not ended)" }),
  to: QueryTime.optional().meta({ description: "Stops starting at or before this time" }),
  limit: limitParam(100, 20),
  cursor: cursorParam,
});
export type StopListQuery = z.infer<typeof StopListQuery>;
export const StopPage = pageOf(Stop, "StopPage");

export const TripLocationsQuery = z.object({
  format: z.enum(["json", "gpx", "geojson"], { error: 'must be "json", "gpx" or "geojson"' }).default("json").meta({ description: "json (a keyset-paged list, default), gpx or geojson (downloads)" }),
  limit: limitParam(1000, 1000).meta({ description: "json only: page size, 1–1000" }),
  cursor: cursorParam,
});
export type TripLocationsQuery = z.infer<typeof TripLocationsQuery>;

/** The longest range one summary covers. */
export const MAX_SUMMARY_DAYS = 366;

export const SummaryQuery = z
  .object({
    trackableId: Id.meta({ description: "The trackable" }),
    from: TimestampInput.meta({ description: "Start of the range (inclusive)" }),
    to: TimestampInput.meta({ description: "End of the range (exclusive)" }),
    timeZone: z
      .string()
      .default("UTC")
      .refine(isTimeZone, "must be an IANA time zone name, e.g. Europe/Berlin")
      .meta({ description: "IANA zone whose local midnights split the days (default UTC)", example: "Europe/Berlin" }),
    period: z.enum(["day"], { error: 'must be "day"' }).default("day"),
  })
  .refine((q) => q.from < q.to, { message: "must be before to", path: ["from"] })
  .refine((q) => q.to.getTime() - q.from.getTime() <= MAX_SUMMARY_DAYS * 86_400_000, { message: `the range must be at most ${MAX_SUMMARY_DAYS} days`, path: ["to"] });
export type SummaryQuery = z.infer<typeof SummaryQuery>;

export const DaySummary = z
  .object({
    date: z.string().meta({ description: "The local date, YYYY-MM-DD", example: "2026-11-22" }),
    distance: z.number().meta({ description: "Metres driven that day (a trip across midnight counts in proportion to its time on each side)" }),
    movingSeconds: z.number().meta({ description: "Seconds inside trips that day (within the range)" }),
    stoppedSeconds: z.number().meta({ description: "Seconds inside stops that day (within the range)" }),
    tripCount: z.number().int().meta({ description: "Trips that started that day" }),
    maxSpeed: z.number().meta({ description: "m/s: the highest maxSpeed of the trips that day; 0 without trips" }),
  })
  .meta({ id: "DaySummary" });
export const Summary = z.object({ days: z.array(DaySummary) }).meta({ id: "Summary" });
export type Summary = z.infer<typeof Summary>;
