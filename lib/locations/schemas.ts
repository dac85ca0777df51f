import { z } from "zod";
import { validationError } from "@/lib/http/errors";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { LOCATION_SOURCES } from "@/lib/db/schema/locations";
import { Id, inTimestampRange, Latitude, Longitude, Timestamp, TIMESTAMP_RANGE_MESSAGE, TimestampInput } from "@/lib/schemas/common";

export const MAX_BATCH = 1000;
export const MAX_FUTURE_MS = 5 * 60 * 1000;
const MIN_QUERY_TIME = Date.parse("0001-01-01T00:00:00Z"); // the earliest date Postgres stores
// A clock that was never set reports 1970-01-01 (OwnTracks' Android parser treats "tst": 0 as invalid): a fix must be
// taken after the epoch, and nothing older is a real position.
const EPOCH = 0;
export const FIX_TIME_MESSAGE = "must be after 1970-01-01T00:00:00Z";

/**
 * Why a fix time can never be stored, or null: at or before the epoch, past 9999-12-31 or no time at all (a Unix
 * time beyond ±8.64e15 ms). Unlike a time in the future, waiting does not make it valid.
 */
export function impossibleFixTime(d: Date): string | null {
  if (!inTimestampRange(d)) return TIMESTAMP_RANGE_MESSAGE;
  return d.getTime() > EPOCH ? null : FIX_TIME_MESSAGE;
}

export const LocationSource = z.enum(LOCATION_SOURCES).meta({
  id: "LocationSource",
  description:
    'Where the location came from: "api" (POST …/locations with an API key), or the tracking app that posted it ' +
    'with a device token: "owntracks" (/ingest/owntracks), "traccar" (/ingest/traccar: Traccar Client, OsmAnd, ' +
    'GPSLogger) or "overland" (/ingest/overland); "import" for history read from a file (POST …/imports)',
  example: "api",
});
export type LocationSource = z.infer<typeof LocationSource>;

export const Location = z
  .object({
    id: Id,
    trackableId: Id,
    latitude: z.number().meta({ description: "WGS84 latitude, decimal degrees", example: 52.52 }),
    longitude: z.number().meta({ description: "WGS84 longitude, decimal degrees", example: 13.405 }),
    accuracy: z.number().nullable().meta({ description: "Horizontal accuracy radius, metres", example: 8 }),
    altitude: z.number().nullable().meta({ description: "Metres above sea level", example: 34.5 }),
    speed: z.number().nullable().meta({ description: "Metres per second", example: 12.4 }),
    heading: z.number().nullable().meta({ description: "Degrees clockwise from north, [0, 360)", example: 271.5 }),
    battery: z.number().nullable().meta({ description: "Battery level, percent", example: 87 }),
    timestamp: Timestamp.meta({ description: "When the position was recorded" }),
    receivedAt: Timestamp.meta({ description: "When Fenceline received it" }),
    source: LocationSource,
  })
  .meta({ id: "Location" });
export type Location = z.infer<typeof Location>;

/** A finite number in [lo, hi], with one message that states the range. */
function inRange(lo: number, hi: number) {
  const message = `must be a number between ${lo} and ${hi}`;
  return z.number().min(lo, message).max(hi, message);
}

/** An optional measure: null or omitted when the device did not report it. */
const measure = (range: z.ZodType<number, number>, description: string, example: number) =>
  range.nullable().optional().meta({ description: `${description}; null or omitted when not reported`, example });

export const LocationInput = z
  .strictObject({
    latitude: Latitude,
    longitude: Longitude,
    accuracy: measure(inRange(0, 1_000_000), "Horizontal accuracy radius, metres", 8),
    altitude: measure(inRange(-20_000, 1_000_000), "Metres above sea level", 34.5),
    speed: measure(inRange(0, 100_000), "Metres per second", 12.4),
    // The apps round the course (OwnTracks to whole degrees, Overland too): 359.5° and more arrive as 360, which is north.
    heading: measure(
      inRange(0, 360).transform((h) => (h === 360 ? 0 : h)),
      "Degrees clockwise from north, [0, 360]; 360 (a rounded course just short of north) is stored as 0",
      271.5,
    ),
    battery: measure(inRange(0, 100), "Battery level, percent, [0, 100]", 87),
    timestamp: TimestampInput.refine((d) => d.getTime() > EPOCH, FIX_TIME_MESSAGE)
      .refine((d) => d.getTime() <= Date.now() + MAX_FUTURE_MS, "must not be more than 5 minutes in the future")
      .optional()
      .meta({
        description:
          "When the position was recorded; default: the time it is received. After 1970-01-01T00:00:00Z (an unset " +
          "clock's time is refused) and at most 5 minutes in the future.",
        example: "2026-11-22T07:33:55.123Z",
      }),
  })
  .meta({ id: "LocationInput" });
export type LocationInput = z.infer<typeof LocationInput>;

export const LocationBatchInput = z
  .strictObject({
    locations: z
      .array(LocationInput)
      .min(1, `must hold 1–${MAX_BATCH} locations`)
      .max(MAX_BATCH, `must hold 1–${MAX_BATCH} locations`)
      .meta({ description: `1–${MAX_BATCH} locations, stored in one insert and returned in this order` }),
  })
  .meta({ id: "LocationBatchInput" });
export type LocationBatchInput = z.infer<typeof LocationBatchInput>;

/** POST /trackables/{id}/locations accepts one location or {"locations": [...]} (this union documents it). */
export const PostLocationsInput = z.union([LocationBatchInput, LocationInput]).meta({ id: "PostLocationsInput" });

/**
 * Parses a POST body into the locations it carries. The shape is chosen by the presence of "locations" before
 * validating, so a bad body gets the errors of the shape it meant (`locations[3].latitude: ...`, or
 * `latitude: unknown field` next to "locations") rather than zod's union error of both shapes.
 */
export function parsePostLocations(raw: Record<string, unknown>): LocationInput[] {
  if ("locations" in raw) {
    const parsed = LocationBatchInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error, "body");
    return parsed.data.locations;
  }
  const parsed = LocationInput.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, "body");
  return [parsed.data];
}

export const LocationList = z.object({ data: z.array(Location) }).meta({ id: "LocationList" });
export const LocationPage = pageOf(Location, "LocationPage");

/**
 * from ≤ to when both are times. Zod runs an object's refinement even when a field failed (a bound that is no time
 * stays the string it was), so the check looks at what it got: that field's own message then says what is wrong.
 */
const fromNotAfterTo = (q: { from?: unknown; to?: unknown }) => !(q.from instanceof Date) || !(q.to instanceof Date) || q.from.getTime() <= q.to.getTime();

const QueryTime = TimestampInput.refine((d) => d.getTime() >= MIN_QUERY_TIME, "must not be before 0001-01-01T00:00:00Z");

export const LocationHistoryQuery = z
  .object({
    from: QueryTime.optional().meta({ description: "Inclusive lower bound on timestamp" }),
    to: QueryTime.optional().meta({ description: "Inclusive upper bound on timestamp" }),
    limit: limitParam(MAX_BATCH, 100),
    cursor: cursorParam,
    order: z
      .enum(["desc", "asc"], { error: 'must be "desc" or "asc"' })
      .default("desc")
      .meta({ description: "desc (newest first, default) or asc (oldest first)" }),
  })
  .refine(fromNotAfterTo, {
    message: "must not be after to",
    path: ["from"],
  });
export type LocationHistoryQuery = z.infer<typeof LocationHistoryQuery>;

/** The most locations one export holds: a range with more is refused (400), never cut short. */
export const MAX_EXPORT_POINTS = 100_000;

export const EXPORT_FORMATS = ["gpx", "geojson", "csv"] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS, { error: 'must be "gpx", "geojson" or "csv"' }).meta({
  description: "gpx (a GPX 1.1 track), geojson (a FeatureCollection of Points) or csv (one row per location, with a header)",
  example: "gpx",
});
export type ExportFormat = z.infer<typeof ExportFormat>;

export const LocationExportQuery = z
  .object({
    format: ExportFormat,
    from: QueryTime.optional().meta({ description: "Inclusive lower bound on timestamp" }),
    to: QueryTime.optional().meta({ description: "Inclusive upper bound on timestamp" }),
  })
  .refine(fromNotAfterTo, {
    message: "must not be after to",
    path: ["from"],
  });
export type LocationExportQuery = z.infer<typeof LocationExportQuery>;

/** The namespace of the GPX export's extension elements (fl:accuracy, fl:speed, fl:heading, fl:battery). */
export const GPX_EXTENSIONS_NS = "https://fenceline.dev/xmlns/gpx-extensions/1";

/** The CSV export's columns, in order (the header row). */
export const CSV_COLUMNS = [
  "id",
  "timestamp",
  "latitude",
  "longitude",
  "accuracy",
  "altitude",
  "speed",
  "heading",
  "battery",
  "source",
  "receivedAt",
] as const satisfies readonly (keyof Location)[];

