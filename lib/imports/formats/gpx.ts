import { SaxesParser } from "saxes";
import { parseIsoTime, type Candidate, type FieldNames } from "@/lib/devices/formats/common";
import { decodeText, ImportFileError, numberOrUndefined, toRecord, type ImportFormat, type ParsedRecord } from "./types";

const NAMES: FieldNames = {
  latitude: "lat",
  longitude: "lon",
  accuracy: "accuracy",
  altitude: "ele",
  speed: "speed",
  heading: "course",
  battery: "battery",
  timestamp: "time",
};

/** A point's child elements (by local name, in any namespace or extension) and the measure each gives. */
const MEASURES: Record<string, keyof Candidate> = {
  ele: "altitude",
  accuracy: "accuracy",
  speed: "speed",
  course: "heading",
  heading: "heading",
  battery: "battery",
};
const POINTS = new Set(["trkpt", "rtept", "wpt"]);
/** Text of one element longer than this is no measure: the file is refused rather than buffered. */
const MAX_TEXT_CHARS = 64 * 1024;

/**
 * GPX 1.0 and 1.1: every trkpt, rtept and wpt with its lat/lon, <time> and <ele>, and the measures loggers write as
 * GPX 1.0 elements or extensions (speed in m/s, course, and Fenceline's own fl:accuracy, fl:speed, fl:heading,
 * fl:battery), matched by local name whatever their namespace prefix.
 */
export const gpx: ImportFormat = {
  name: "gpx",
  label: "GPX",
  mediaTypes: ["application/gpx+xml", "application/xml", "text/xml"],
  extensions: [".gpx"],
  async *parse(input) {
    const parser = new SaxesParser({ position: true });
    const out: ParsedRecord[] = [];
    let point: { line: number; lat?: string; lon?: string; values: Record<string, string> } | null = null;
    let text = "";
    let element: string | null = null;
    parser.on("opentag", (tag) => {
      const local = localName(tag.name);
      if (POINTS.has(local)) {
        const attrs = tag.attributes as Record<string, string>;
        point = { line: parser.line, lat: attrs.lat, lon: attrs.lon, values: {} };
      } else if (point && (local === "time" || local in MEASURES)) {
        element = local;
        text = "";
      }
    });
    parser.on("text", (t) => {
      if (element === null) return;
      text += t;
      if (text.length > MAX_TEXT_CHARS) throw new ImportFileError(`<${element}> is longer than ${MAX_TEXT_CHARS} characters`, { line: parser.line });
    });
    parser.on("closetag", (tag) => {
      const local = localName(tag.name);
      if (point && element === local) {
        point.values[local] = text.trim();
        element = null;
      } else if (point && POINTS.has(local)) {
        out.push(gpxRecord(point));
        point = null;
      }
    });
    try {
      for await (const chunk of decodeText(input)) {
        parser.write(chunk);
        yield* out.splice(0);
      }
      parser.close();
      yield* out.splice(0);
    } catch (err) {
      if (err instanceof ImportFileError) throw err;
      throw new ImportFileError(`not well-formed XML: ${(err as Error).message}`, { line: parser.line });
    }
  },
};

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

function gpxRecord(point: { line: number; lat?: string; lon?: string; values: Record<string, string> }): ParsedRecord {
  const v = point.values;
  const time = v.time;
  const candidate: Candidate = {
    latitude: numberOrUndefined(point.lat),
    longitude: numberOrUndefined(point.lon),
    timestamp: time === undefined || time === "" ? undefined : (parseIsoTime(time) ?? { problem: "must be an ISO 8601 date-time with a time zone" }),
  };
  for (const [el, field] of Object.entries(MEASURES)) {
    if (v[el] !== undefined) candidate[field] = numberOrUndefined(v[el]) as never;
  }
  return toRecord({ line: point.line }, candidate, NAMES);
}
