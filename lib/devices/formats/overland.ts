// POST /ingest/overland — Overland for iOS (https://github.com/aaronpk/Overland-iOS, README "API"): batches of
// `{"locations": [GeoJSON Point Feature…]}` with `Authorization: Bearer <token>` (the access token of its settings).
// Coordinates are [longitude, latitude]; properties.timestamp ISO 8601 (the README's example has "-0700", no colon),
// altitude and horizontal_accuracy metres, speed m/s and course degrees (negative: not known, as CoreLocation reports
// them), battery_level 0–1. Overland deletes a batch from its queue only on the reply {"result":"ok"}, so a point
// whose position or time cannot be stored is skipped rather than failing the batch, which the app would otherwise
// resend for ever; any other field it cannot store (a course of 360 is north, 0) is stored as not known.
import { isJsonMediaType, parseJsonObject } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { MAX_BATCH, type LocationInput } from "@/lib/locations/schemas";
import { bearer, json } from "@/lib/http/handler";
import {
  asObject,
  checkPoint,
  fractionToPercent,
  isoTimeField,
  queryParam,
  readBodyAs,
  unlessNegative,
  type DeviceFormat,
  type FieldNames,
} from "./common";

const NAMES: FieldNames = {
  latitude: "geometry.coordinates[1]",
  longitude: "geometry.coordinates[0]",
  accuracy: "properties.horizontal_accuracy",
  altitude: "properties.altitude",
  speed: "properties.speed",
  heading: "properties.course",
  battery: "properties.battery_level",
  timestamp: "properties.timestamp",
};

/** One feature as a location, or null when it is not a Point with a valid position and time (it is then skipped). */
function fromFeature(value: unknown): LocationInput | null {
  const feature = asObject(value);
  const geometry = asObject(feature?.geometry);
  const properties = asObject(feature?.properties) ?? {};
  if (feature?.type !== "Feature" || geometry?.type !== "Point" || !Array.isArray(geometry.coordinates)) return null;
  const [longitude, latitude, altitude] = geometry.coordinates as unknown[];
  // CoreLocation: a negative horizontal accuracy means the coordinates themselves are invalid.
  const accuracy = properties.horizontal_accuracy;
  if (typeof accuracy === "number" && accuracy < 0) return null;
  const checked = checkPoint(
    {
      latitude,
      longitude,
      accuracy,
      altitude: properties.altitude ?? altitude,
      speed: unlessNegative(properties.speed),
      heading: unlessNegative(properties.course),
      battery: unlessNegative(fractionToPercent(properties.battery_level)),
      timestamp: isoTimeField(properties.timestamp),
    },
    NAMES,
    { timeRequired: true, invalidMeasureUnknown: true },
  );
  return "point" in checked ? checked.point : null;
}

export const overland: DeviceFormat<unknown[]> = {
  app: "overland",
  challenge: 'Bearer realm="Fenceline"',

  async read(req) {
    const text = await readBodyAs(req, isJsonMediaType, "application/json");
    if (text.trim() === "") throw new ApiError("invalid_request", 'Request body is required: send {"locations": [...]}');
    const body = parseJsonObject(text);
    if (!Array.isArray(body.locations)) throw new ApiError("invalid_request", "Invalid body: locations: must be an array of GeoJSON Point features");
    if (body.locations.length > MAX_BATCH) {
      throw new ApiError("invalid_request", `Invalid body: locations: at most ${MAX_BATCH} per request (Overland's largest batch)`);
    }
    return { token: bearer(req) ?? queryParam(req, "token"), payload: body.locations };
  },

  points: (features) => features.map(fromFeature).filter((p): p is LocationInput => p !== null),

  ok: () => json({ result: "ok" }, 200),
};
