import { isoTimeField, type Candidate, type FieldNames } from "@/lib/devices/formats/common";
import { jsonArrayElements } from "./json-array";
import { toRecord, type ImportFormat, type ParsedRecord } from "./types";

const NAMES: FieldNames = {
  latitude: "latitudeE7",
  longitude: "longitudeE7",
  accuracy: "accuracy",
  altitude: "altitude",
  speed: "velocity",
  heading: "heading",
  battery: "batteryLevel",
  timestamp: "timestamp",
};

/** Older exports wrote some E7 coordinates as unsigned 32-bit integers: those above 90° / 180° wrapped around. */
const E7_WRAP = 2 ** 32;

/**
 * Google Takeout's Location History `Records.json`: `{"locations": [...]}`, each record with latitudeE7/longitudeE7
 * (degrees × 10⁷), accuracy and altitude in metres, velocity in m/s, heading in degrees, and the time as `timestamp`
 * (ISO 8601) or, in older exports, `timestampMs` (Unix milliseconds as a string).
 */
export const takeout: ImportFormat = {
  name: "takeout",
  label: "Google Takeout Records.json",
  mediaTypes: [],
  extensions: ["records.json"],
  async *parse(input) {
    for await (const { index, value } of jsonArrayElements(input, "locations")) yield takeoutRecord(index, value);
  },
};

function takeoutRecord(index: number, value: unknown): ParsedRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: { index, message: "a location record must be a JSON object" } };
  }
  const r = value as Record<string, unknown>;
  const candidate: Candidate = {
    latitude: e7(r.latitudeE7, 90),
    longitude: e7(r.longitudeE7, 180),
    accuracy: r.accuracy,
    altitude: r.altitude,
    speed: r.velocity,
    heading: r.heading,
    battery: r.batteryLevel,
    timestamp: r.timestamp !== undefined ? isoTimeField(r.timestamp) : millisField(r.timestampMs),
  };
  return toRecord({ index }, candidate, NAMES);
}

function e7(n: unknown, limit: number): unknown {
  if (typeof n !== "number") return n;
  const wrapped = n > limit * 1e7 ? n - E7_WRAP : n;
  return wrapped / 1e7;
}

function millisField(value: unknown): Candidate["timestamp"] {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(ms) ? new Date(ms) : { problem: "timestampMs must be Unix time in milliseconds" };
}
