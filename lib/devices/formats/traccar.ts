// GET|POST /ingest/traccar — the OsmAnd protocol of Traccar's server (its OsmAndProtocolDecoder, port 5055), which
// Traccar Client, OsmAnd and GPSLogger speak:
// - query or form parameters: `id`/`deviceid` (here: the device token), `lat` + `lon` or `location=lat,lon`,
//   `timestamp`, `speed` (knots), `bearing`/`heading`, `altitude`, `accuracy`, `batt` (percent). Traccar Client for
//   Android up to 8.x POSTs them in the query string with an empty body; GPSLogger's custom URL sends what its
//   placeholders fill in; anything else the apps add (hdop, charge, mock, alarm, cell, wifi…) is ignored;
// - Traccar Client 9's JSON (Content-Type application/json): `{"device_id", "location": {"timestamp",
//   "coords": {"latitude", "longitude", "accuracy", "speed" (m/s), "heading", "altitude"}, "battery": {"level" (0–1)}}}`,
//   where -1 means "not known" for speed, heading and battery level.
// - Traccar Client 10 (the same app on Traccar's own location SDK): the query form's parameters as a form body
//   (Content-Type application/x-www-form-urlencoded), speed in knots.
// The reply is 200 with an empty body (Traccar's), 400 when the position is missing or invalid. A fix dated at or
// before 1970 or beyond any date is acknowledged and dropped: the apps keep a position until it is answered 200 and
// resend it after a failure, so a 400 for a time no resend can change would hold up every later position.
import { isJsonMediaType, mediaType, parseJsonObject } from "@/lib/http/body";
import type { LocationInput } from "@/lib/locations/schemas";
import {
  asObject,
  fractionToPercent,
  fromUnixTime,
  isoTimeField,
  KNOTS_TO_MS,
  parseIsoTime,
  readBodyAs,
  requirePoint,
  scaled,
  unlessNegative,
  type Candidate,
  type DeviceFormat,
  type FieldNames,
} from "./common";

type TraccarPayload = { kind: "json"; body: Record<string, unknown> } | { kind: "params"; params: Map<string, string> };

const FORM = "application/x-www-form-urlencoded";

const PARAM_NAMES: FieldNames = {
  latitude: "lat",
  longitude: "lon",
  accuracy: "accuracy",
  altitude: "altitude",
  speed: "speed",
  heading: "bearing",
  battery: "batt",
  timestamp: "timestamp",
};

const JSON_NAMES: FieldNames = {
  latitude: "location.coords.latitude",
  longitude: "location.coords.longitude",
  accuracy: "location.coords.accuracy",
  altitude: "location.coords.altitude",
  speed: "location.coords.speed",
  heading: "location.coords.heading",
  battery: "location.battery.level",
  timestamp: "location.timestamp",
};

/** Query parameters, then those of a form body that the query does not already name; the first value of each, trimmed. */
function parameters(url: URL, formBody: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const source of [url.searchParams, new URLSearchParams(formBody)]) {
    for (const [name, value] of source) if (!params.has(name) && value.trim() !== "") params.set(name, value.trim());
  }
  return params;
}

// A decimal number as the apps write one ("52.52", "-0.5", "1e-3"); anything else stays a string for the schema to refuse.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const decimal = (value: string | undefined): unknown => (value === undefined ? undefined : DECIMAL.test(value) ? Number(value) : value);

/** `timestamp`: Unix seconds, milliseconds when above 10¹², or ISO 8601 with a zone; absent: the time received. */
function timeParam(value: string | undefined): Candidate["timestamp"] {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return fromUnixTime(Number(value));
  return parseIsoTime(value) ?? { problem: "must be Unix seconds, milliseconds or an ISO 8601 date-time with a time zone" };
}

function fromParams(params: Map<string, string>): LocationInput | null {
  let latitude = decimal(params.get("lat"));
  let longitude = decimal(params.get("lon"));
  const location = params.get("location");
  if (location !== undefined && latitude === undefined && longitude === undefined) {
    const [lat, lon, ...rest] = location.split(",").map((s) => s.trim());
    latitude = rest.length === 0 ? decimal(lat) : location;
    longitude = rest.length === 0 ? decimal(lon) : location;
  }
  return requirePoint(
    {
      latitude,
      longitude,
      accuracy: decimal(params.get("accuracy")),
      altitude: decimal(params.get("altitude")),
      speed: unlessNegative(scaled(decimal(params.get("speed")), KNOTS_TO_MS)),
      heading: unlessNegative(decimal(params.get("bearing") ?? params.get("heading"))),
      battery: unlessNegative(decimal(params.get("batt"))),
      timestamp: timeParam(params.get("timestamp")),
    },
    PARAM_NAMES,
  );
}

function fromJson(body: Record<string, unknown>): LocationInput | null {
  const location = asObject(body.location);
  const coords = asObject(location?.coords);
  const battery = asObject(location?.battery);
  return requirePoint(
    {
      latitude: coords?.latitude,
      longitude: coords?.longitude,
      accuracy: coords?.accuracy,
      altitude: coords?.altitude,
      speed: unlessNegative(coords?.speed),
      heading: unlessNegative(coords?.heading),
      battery: unlessNegative(fractionToPercent(battery?.level)),
      timestamp: isoTimeField(location?.timestamp),
    },
    JSON_NAMES,
    { timeRequired: true },
  );
}

export const traccar: DeviceFormat<TraccarPayload> = {
  app: "traccar",

  async read(req) {
    const url = new URL(req.url);
    const text = await readBodyAs(req, (type) => isJsonMediaType(type) || type === FORM, `${FORM} or application/json`);
    if (text.trim() !== "" && isJsonMediaType(mediaType(req))) {
      const body = parseJsonObject(text);
      const token = typeof body.device_id === "string" && body.device_id.trim() !== "" ? body.device_id.trim() : null;
      return { token: token ?? url.searchParams.get("id") ?? url.searchParams.get("deviceid"), payload: { kind: "json", body } };
    }
    const params = parameters(url, text);
    return { token: params.get("id") ?? params.get("deviceid") ?? null, payload: { kind: "params", params } };
  },

  points(payload) {
    const point = payload.kind === "json" ? fromJson(payload.body) : fromParams(payload.params);
    return point ? [point] : [];
  },

  ok: () => new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } }),
};
