import { sql } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { locations } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { requireTrackable } from "@/lib/trackables/trackables";
import { inTimeRange, listLocations } from "./locations";
import { CSV_COLUMNS, GPX_EXTENSIONS_NS, MAX_BATCH, MAX_EXPORT_POINTS, type ExportFormat, type Location, type LocationExportQuery } from "./schemas";

/** A download, ready to become a response: the body is produced page by page as the client reads it. */
export interface LocationExport {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  filename: string;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  gpx: "application/gpx+xml; charset=utf-8",
  geojson: "application/geo+json; charset=utf-8",
  csv: "text/csv; charset=utf-8; header=present",
};

/**
 * A trackable's history between the inclusive `from`/`to`, oldest first, as GPX, GeoJSON or CSV. Tenancy, the
 * range and the count are checked before the first byte (404, 400): a range holding more than MAX_EXPORT_POINTS
 * locations is refused with a message that says so, as Stripe refuses what exceeds a limit rather than cutting it
 * short. The body then reads the history in keyset pages of MAX_BATCH through the history verb, one page per pull,
 * so memory stays at one page whatever the range; it stops at MAX_EXPORT_POINTS even if points arrive meanwhile.
 */
export async function exportLocations({
  ctx,
  trackableId,
  query,
}: {
  ctx: Ctx;
  trackableId: string;
  query: LocationExportQuery;
}): Promise<LocationExport> {
  const trackable = await requireTrackable(ctx, trackableId);
  const count = await countUpTo(ctx, trackableId, query, MAX_EXPORT_POINTS + 1);
  if (count > MAX_EXPORT_POINTS) {
    throw new ApiError(
      "invalid_request",
      `Too many locations to export: this range holds more than ${MAX_EXPORT_POINTS.toLocaleString("en")}; ` +
        "narrow it with from and to and export it in parts",
    );
  }

  const writer = WRITERS[query.format]({ name: trackable.name, trackableId });
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let sent = 0;
  let started = false;
  let finished = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(writer.head()));
          return;
        }
        if (finished) return;
        const page = await listLocations({
          ctx,
          trackableId,
          query: { from: query.from, to: query.to, order: "asc", cursor, limit: Math.min(MAX_BATCH, MAX_EXPORT_POINTS - sent) },
        });
        let text = "";
        for (const location of page.data) text += writer.row(location, sent++ === 0);
        cursor = page.nextCursor ?? undefined;
        if (!cursor || sent >= MAX_EXPORT_POINTS) {
          finished = true;
          text += writer.tail();
        }
        if (text) controller.enqueue(encoder.encode(text));
        if (finished) controller.close();
      },
    },
    // One page in flight at most: the next is read only once the client has taken the previous one.
    { highWaterMark: 1 },
  );
  return { body, contentType: CONTENT_TYPES[query.format], filename: exportFilename(trackable.name, query) };
}

/** The export as a download response (both the API route and the dashboard's route answer with this). */
export function exportResponse(exp: LocationExport): Response {
  return new Response(exp.body, {
    status: 200,
    headers: {
      "Content-Type": exp.contentType,
      "Content-Disposition": contentDisposition(exp.filename),
      "Cache-Control": "no-store",
    },
  });
}

/** How many locations the range holds, counting no further than `cap` (one index range scan of at most `cap` rows). */
async function countUpTo(ctx: Ctx, trackableId: string, query: LocationExportQuery, cap: number): Promise<number> {
  const inRange = exec(ctx)
    .select({ one: sql`1` })
    .from(locations)
    .where(inTimeRange(trackableId, query))
    .limit(cap)
    .as("in_range");
  const [row] = await exec(ctx).select({ n: sql<number>`count(*)::int` }).from(inRange);
  return Number(row?.n ?? 0);
}

interface Writer {
  head(): string;
  row(location: Location, first: boolean): string;
  tail(): string;
}

/** The export's writers (the importers read what they write back: lib/imports). */
export const WRITERS: Record<ExportFormat, (t: { name: string; trackableId: string }) => Writer> = {
  gpx: ({ name }) => ({
    head: () =>
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<gpx version="1.1" creator="Fenceline" xmlns="http://www.topografix.com/GPX/1/1" ' +
      `xmlns:fl="${GPX_EXTENSIONS_NS}">\n` +
      `<metadata><name>${xmlText(name)}</name><time>${new Date().toISOString()}</time></metadata>\n` +
      `<trk><name>${xmlText(name)}</name><trkseg>\n`,
    row: gpxPoint,
    tail: () => "</trkseg></trk>\n</gpx>\n",
  }),
  geojson: ({ name, trackableId }) => ({
    head: () => `{"type":"FeatureCollection","name":${JSON.stringify(name)},"trackableId":${JSON.stringify(trackableId)},"features":[\n`,
    row: (l, first) => `${first ? "" : ",\n"}${JSON.stringify(geoJsonFeature(l))}`,
    tail: () => "\n]}\n",
  }),
  csv: () => ({
    head: () => `${CSV_COLUMNS.join(",")}\r\n`,
    // Every field is a number, an ISO date-time, a UUID or a source enum: none can hold a comma, quote or line break.
    row: (l) => `${CSV_COLUMNS.map((c) => (l[c] === null ? "" : String(l[c]))).join(",")}\r\n`,
    tail: () => "",
  }),
};

/** A GPX 1.1 trkpt: ele and time in the schema's order, the measures GPX 1.1 has no element for in extensions. */
function gpxPoint(l: Location): string {
  const ext = (["accuracy", "speed", "heading", "battery"] as const)
    .filter((k) => l[k] !== null)
    .map((k) => `<fl:${k}>${l[k]}</fl:${k}>`)
    .join("");
  return (
    `<trkpt lat="${l.latitude}" lon="${l.longitude}">` +
    (l.altitude !== null ? `<ele>${l.altitude}</ele>` : "") +
    `<time>${l.timestamp}</time>` +
    (ext ? `<extensions>${ext}</extensions>` : "") +
    "</trkpt>\n"
  );
}

function geoJsonFeature(l: Location) {
  return {
    type: "Feature",
    id: l.id,
    geometry: { type: "Point", coordinates: l.altitude !== null ? [l.longitude, l.latitude, l.altitude] : [l.longitude, l.latitude] },
    properties: {
      timestamp: l.timestamp,
      accuracy: l.accuracy,
      altitude: l.altitude,
      speed: l.speed,
      heading: l.heading,
      battery: l.battery,
      source: l.source,
      receivedAt: l.receivedAt,
    },
  };
}

/** Text for an XML element: the five predefined entities, and the characters XML 1.0 cannot carry at all dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** `van-12_2026-11-22T0700Z_2026-11-22T0800Z.gpx`: the name in ASCII, the range when one was given. */
export function exportFilename(name: string, query: LocationExportQuery): string {
  const slug =
    name
      .normalize("NFKD")
      .replace(/[^\x20-\x7E]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "trackable";
  const stamp = (d: Date) => d.toISOString().slice(0, 16).replace(":", "") + "Z";
  const range = query.from || query.to ? `_${query.from ? stamp(query.from) : "start"}_${query.to ? stamp(query.to) : "now"}` : "";
  return `${slug}${range}.${query.format}`;
}

/** RFC 6266: the filename is ASCII by construction, so the plain parameter is enough. */
const contentDisposition = (filename: string) => `attachment; filename="${filename}"`;
