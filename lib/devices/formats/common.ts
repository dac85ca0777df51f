import { z } from "zod";
import { mediaType, readBodyText, type RequestLike } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { impossibleFixTime, LocationInput, type LocationSource } from "@/lib/locations/schemas";

/** The tracking apps that post to /ingest (each a value of Location.source). */
export type DeviceApp = Exclude<LocationSource, "api" | "import">;

/** What a format reads from a request before anything is authenticated: the token presented and the app's payload. */
export interface DeviceRequest<P> {
  token: string | null;
  payload: P;
}

/**
 * One app's protocol: how to read its request (400, 413 or 415 for what cannot be read), how to turn its payload into
 * locations (400 for an invalid position, or skip it where the app wants that; a fix whose time can never be stored
 * is skipped, so that the success reply takes it off the app's queue), and its success reply.
 */
export interface DeviceFormat<P> {
  app: DeviceApp;
  read(req: RequestLike): Promise<DeviceRequest<P>>;
  points(payload: P): LocationInput[];
  ok(): Response;
  /** WWW-Authenticate of a 401, for apps that authenticate with an HTTP scheme. */
  challenge?: string;
}

/** A position's fields as an app sends them, already in Fenceline's units (null or undefined: not reported). */
export interface Candidate {
  latitude?: unknown;
  longitude?: unknown;
  accuracy?: unknown;
  altitude?: unknown;
  speed?: unknown;
  heading?: unknown;
  battery?: unknown;
  /** When the fix was taken; a problem when the app sent something that is not a time; undefined when not sent. */
  timestamp?: Date | { problem: string };
}

/** The app's name of each field, for error messages that name what the app sent ("lat", "coords.latitude"). */
export type FieldNames = Record<keyof Candidate, string>;

/** The measures a point can be stored without: each is null when not known. */
const MEASURES = ["accuracy", "altitude", "speed", "heading", "battery"] as const;

export interface CheckOptions {
  /** A point without a time is refused rather than dated by its receipt. */
  timeRequired?: boolean;
  /** An invalid measure is stored as not known (null) instead of refusing the point. */
  invalidMeasureUnknown?: boolean;
}

/** What checkPoint makes of a candidate: a location; problems (a 400); or a fix time that can never be stored. */
export type Checked = { point: LocationInput } | { problems: string[] } | { impossible: string };

/**
 * Validates a candidate against the API's LocationInput (same ranges, same time limits): the location, or the
 * messages that name each offending field by the app's name for it. A fix time at or before the epoch or beyond
 * what a date holds is `impossible`: no resend can make it valid.
 */
export function checkPoint(candidate: Candidate, names: FieldNames, opts: CheckOptions = {}): Checked {
  const problems: string[] = [];
  const { timestamp, ...measures } = candidate;
  if (timestamp instanceof Date) {
    const never = impossibleFixTime(timestamp);
    if (never) return { impossible: `${names.timestamp}: ${never}` };
  }
  for (const field of ["latitude", "longitude"] as const) {
    if (candidate[field] === undefined || candidate[field] === null) problems.push(`${names[field]}: required`);
  }
  if (timestamp === undefined && opts.timeRequired) problems.push(`${names.timestamp}: required`);
  if (timestamp !== undefined && !(timestamp instanceof Date)) problems.push(`${names.timestamp}: ${timestamp.problem}`);
  if (problems.length > 0) return { problems };
  const input = { ...measures, ...(timestamp instanceof Date ? { timestamp: timestamp.toISOString() } : {}) };
  let parsed = LocationInput.safeParse(input);
  if (!parsed.success && opts.invalidMeasureUnknown) {
    const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]));
    if ([...fields].every((f) => (MEASURES as readonly unknown[]).includes(f))) {
      parsed = LocationInput.safeParse({ ...input, ...Object.fromEntries([...fields].map((f) => [f, null])) });
    }
  }
  if (parsed.success) return { point: parsed.data };
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Candidate;
    problems.push(`${names[field] ?? String(field)}: ${issue.message}`);
  }
  return { problems };
}

/** checkPoint's location; null for a fix time that can never be stored; 400 naming every offending field. */
export function requirePoint(candidate: Candidate, names: FieldNames, opts: CheckOptions = {}): LocationInput | null {
  const checked = checkPoint(candidate, names, opts);
  if ("point" in checked) return checked.point;
  if ("impossible" in checked) return null;
  throw new ApiError("invalid_request", `Invalid position: ${[...new Set(checked.problems)].join("; ")}`);
}

/** A measure where a negative number means "not known" (speed, heading, battery of the apps that use -1 for that). */
export const unlessNegative = (n: unknown): unknown => (typeof n === "number" && n < 0 ? null : n);

/** A fraction in [0, 1] as a percentage, without float noise (0.79 → 79, not 79.00000000000001). */
export const fractionToPercent = (n: unknown): unknown => (typeof n === "number" ? Number((n * 100).toFixed(6)) : n);

export const KNOTS_TO_MS = 1852 / 3600;
export const KMH_TO_MS = 1 / 3.6;
/** n × factor when n is a number; anything else as it is (for the schema to refuse or to pass as unknown). */
export const scaled = (n: unknown, factor: number): unknown => (typeof n === "number" ? n * factor : n);

// An ISO 8601 date-time with a zone: Z, ±hh:mm, ±hhmm (Overland's "2015-10-01T08:00:00-0700") or ±hh.
const ISO_WITH_ZONE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|z|[+-]\d{2}(?::?\d{2})?)$/;
const IsoDateTime = z.iso.datetime({ offset: true });

/** An ISO 8601 date-time with a time zone, as a Date; null for anything else (a zone-less time is ambiguous). */
export function parseIsoTime(value: string): Date | null {
  const m = ISO_WITH_ZONE.exec(value.trim());
  if (!m) return null;
  let zone = m[2]!.toUpperCase();
  if (zone !== "Z") zone = zone.length === 3 ? `${zone}:00` : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const normalised = `${m[1]}${zone}`;
  if (!IsoDateTime.safeParse(normalised).success) return null;
  const date = new Date(normalised);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Unix time in seconds, or in milliseconds when above 10¹² (no device reports a time in the year 33658). A number
 * beyond what a Date holds gives an invalid Date, which checkPoint reports as a time that can never be stored.
 */
export const fromUnixTime = (n: number): Date => new Date(n > 1e12 ? n : n * 1000);

/** A JSON timestamp field: Unix seconds (or milliseconds above 10¹²), or not sent. */
export function unixTimeField(value: unknown): Candidate["timestamp"] {
  if (value === undefined || value === null) return undefined;
  return typeof value === "number" && Number.isFinite(value) ? fromUnixTime(value) : { problem: "must be Unix time in seconds" };
}

/** A JSON timestamp field: an ISO 8601 date-time with a time zone, or not sent. */
export function isoTimeField(value: unknown): Candidate["timestamp"] {
  if (value === undefined || value === null) return undefined;
  const date = typeof value === "string" ? parseIsoTime(value) : null;
  return date ?? { problem: "must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T07:33:55.123Z" };
}

/**
 * The body as text. A non-empty body in a content type the endpoint does not read is a 415; one without a
 * Content-Type is read as the endpoint's own type (apps and curl do send bodies without one).
 */
export async function readBodyAs(req: RequestLike, accepts: (type: string) => boolean, expected: string): Promise<string> {
  const text = await readBodyText(req);
  const type = mediaType(req);
  if (text.trim() !== "" && type !== null && !accepts(type)) {
    throw new ApiError("unsupported_media_type", `Content-Type ${type} is not accepted here: send ${expected}`);
  }
  return text;
}

/** The password of an `Authorization: Basic` header (the user name is ignored), or null. */
export function basicPassword(req: Pick<Request, "headers">): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : null;
}

/** The first value of a query parameter, or null when absent or blank. */
export function queryParam(req: Pick<Request, "url">, name: string): string | null {
  const value = new URL(req.url).searchParams.get(name);
  return value && value.trim() !== "" ? value.trim() : null;
}

/** A JSON value as an object, or null when it is anything else. */
export const asObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
