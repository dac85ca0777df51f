import { isoTimeField, unixTimeField, type Candidate, type FieldNames } from "@/lib/devices/formats/common";
import { jsonArrayElements } from "./json-array";
import { toRecord, type ImportFormat, type ParsedRecord } from "./types";

const NAMES: FieldNames = {
  latitude: "coordinates[1]",
  longitude: "coordinates[0]",
  accuracy: "accuracy",
  altitude: "coordinates[2]",
  speed: "speed",
  heading: "heading",
  battery: "battery",
  timestamp: "timestamp",
};

/**
 * A GeoJSON FeatureCollection: each Point feature is a fix, its time in properties.timestamp (or time: ISO 8601, or
 * Unix seconds) and its measures in properties (accuracy, speed, heading, battery; altitude as the third coordinate
 * or properties.altitude), as Fenceline's export writes them. A LineString or MultiPoint feature is a track whose
 * vertices are dated by properties.coordTimes or coordinateProperties.times (as togeojson and GPS Visualizer write).
 */
export const geojson: ImportFormat = {
  name: "geojson",
  label: "GeoJSON",
  mediaTypes: ["application/geo+json", "application/json"],
  extensions: [".geojson", ".json"],
  async *parse(input) {
    for await (const { index, value } of jsonArrayElements(input, "features")) yield* featureRecords(index, value);
  },
};

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null);

function* featureRecords(index: number, value: unknown): Iterable<ParsedRecord> {
  const feature = asObj(value);
  const geometry = asObj(feature?.geometry);
  if (!feature || !geometry) {
    yield { error: { index, message: "a feature must be an object with a geometry" } };
    return;
  }
  const props = asObj(feature.properties) ?? {};
  const coordinates = geometry.coordinates;
  if (geometry.type === "Point") {
    yield point(index, coordinates, props, props.timestamp ?? props.time);
    return;
  }
  if (geometry.type === "LineString" || geometry.type === "MultiPoint") {
    const times = (props.coordTimes ?? asObj(props.coordinateProperties)?.times ?? asObj(feature.coordinateProperties)?.times) as unknown;
    if (!Array.isArray(coordinates) || !Array.isArray(times)) {
      yield { error: { index, message: `a ${geometry.type} needs coordinates and properties.coordTimes with a time per vertex` } };
      return;
    }
    for (let i = 0; i < coordinates.length; i++) yield point(index, coordinates[i], {}, times[i]);
    return;
  }
  yield { error: { index, message: `geometry type ${JSON.stringify(geometry.type)} is not a Point, LineString or MultiPoint` } };
}

function point(index: number, coordinates: unknown, props: Obj, time: unknown): ParsedRecord {
  const c = Array.isArray(coordinates) ? coordinates : [];
  const candidate: Candidate = {
    longitude: c[0],
    latitude: c[1],
    altitude: c[2] ?? props.altitude,
    accuracy: props.accuracy,
    speed: props.speed,
    heading: props.heading,
    battery: props.battery,
    timestamp: typeof time === "number" ? unixTimeField(time) : isoTimeField(time),
  };
  return toRecord({ index }, candidate, NAMES);
}
