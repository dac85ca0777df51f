import { gpx } from "@tmcw/togeojson";
import { DOMParser } from "@xmldom/xmldom";

// Parses the location exports (GPX, GeoJSON, CSV) back into comparable points, for the API tests and the e2e spec.

export interface ExportedPoint {
  latitude: number;
  longitude: number;
  timestamp: string;
  altitude: number | null;
  accuracy: number | null;
  speed: number | null;
  heading: number | null;
  battery: number | null;
}

/** The same fields from a history item (GET …/locations), for comparison. */
export const pointOf = (l: ExportedPoint): ExportedPoint => ({
  latitude: l.latitude,
  longitude: l.longitude,
  timestamp: l.timestamp,
  altitude: l.altitude,
  accuracy: l.accuracy,
  speed: l.speed,
  heading: l.heading,
  battery: l.battery,
});

const FL = "https://fenceline.dev/xmlns/gpx-extensions/1";

/**
 * A GPX document through a strict XML parser (any warning or error throws) and togeojson's GPX reader (track name,
 * positions, elevations, times), with the fl: extension elements read from the same DOM.
 */
export function parseGpx(text: string): { name: string | null; points: ExportedPoint[] } {
  const doc = new DOMParser({
    onError: (level, message) => {
      throw new Error(`GPX is not well-formed XML (${level}): ${message}`);
    },
  }).parseFromString(text, "application/xml");
  const root = doc.documentElement!;
  if (root.localName !== "gpx" || root.namespaceURI !== "http://www.topografix.com/GPX/1/1" || root.getAttribute("version") !== "1.1") {
    throw new Error("not a GPX 1.1 document");
  }
  const collection = gpx(doc as unknown as Parameters<typeof gpx>[0]);
  const track = collection.features.find((f) => f.properties?._gpxType === "trk");
  const trkpts = Array.from(doc.getElementsByTagNameNS("http://www.topografix.com/GPX/1/1", "trkpt"));
  const ext = (el: (typeof trkpts)[number], name: string) => {
    const found = el.getElementsByTagNameNS(FL, name)[0];
    return found ? Number(found.textContent) : null;
  };
  // togeojson gives a LineString for 2+ points; a single point comes out as a Point, no points as no feature.
  const geometry = track?.geometry;
  const coords: number[][] = !geometry ? [] : geometry.type === "LineString" ? geometry.coordinates : geometry.type === "Point" ? [geometry.coordinates] : [];
  const times: string[] = (track?.properties?.coordinateProperties as { times?: string[] } | undefined)?.times ?? [];
  if (coords.length !== trkpts.length) throw new Error(`togeojson read ${coords.length} points of ${trkpts.length}`);
  return {
    name: (track?.properties?.name as string | undefined) ?? null,
    points: coords.map((c, i) => ({
      latitude: c[1]!,
      longitude: c[0]!,
      altitude: c.length > 2 ? c[2]! : null,
      timestamp: new Date(times[i]!).toISOString(),
      accuracy: ext(trkpts[i]!, "accuracy"),
      speed: ext(trkpts[i]!, "speed"),
      heading: ext(trkpts[i]!, "heading"),
      battery: ext(trkpts[i]!, "battery"),
    })),
  };
}

export function parseGeoJson(text: string): { ids: string[]; points: ExportedPoint[] } {
  const fc = JSON.parse(text) as {
    type: string;
    features: { type: string; id: string; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[];
  };
  if (fc.type !== "FeatureCollection") throw new Error("not a FeatureCollection");
  return {
    ids: fc.features.map((f) => f.id),
    points: fc.features.map((f) => {
      if (f.type !== "Feature" || f.geometry.type !== "Point") throw new Error("not a Point feature");
      const p = f.properties as Record<string, number | string | null>;
      return {
        latitude: f.geometry.coordinates[1]!,
        longitude: f.geometry.coordinates[0]!,
        altitude: f.geometry.coordinates[2] ?? null,
        timestamp: p.timestamp as string,
        accuracy: p.accuracy as number | null,
        speed: p.speed as number | null,
        heading: p.heading as number | null,
        battery: p.battery as number | null,
      };
    }),
  };
}

/** RFC 4180: quoted fields (with "" for a quote and embedded line breaks), CRLF or LF records. */
export function parseCsvRecords(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

export function parseCsv(text: string): { header: string[]; ids: string[]; points: ExportedPoint[] } {
  const [header, ...records] = parseCsvRecords(text);
  if (!header) throw new Error("empty CSV");
  const col = (r: string[], name: string) => r[header.indexOf(name)]!;
  const num = (r: string[], name: string) => (col(r, name) === "" ? null : Number(col(r, name)));
  return {
    header,
    ids: records.map((r) => col(r, "id")),
    points: records.map((r) => ({
      latitude: Number(col(r, "latitude")),
      longitude: Number(col(r, "longitude")),
      timestamp: col(r, "timestamp"),
      altitude: num(r, "altitude"),
      accuracy: num(r, "accuracy"),
      speed: num(r, "speed"),
      heading: num(r, "heading"),
      battery: num(r, "battery"),
    })),
  };
}
