import { checkPoint, type Candidate, type FieldNames } from "@/lib/devices/formats/common";
import type { LocationInput } from "@/lib/locations/schemas";

/** Where in the file a record was: a line (text formats, GPX) or the index of an element of the JSON array. */
export interface ImportPosition {
  line?: number;
  index?: number;
}

/** A record of the file that could not become a location, and why. */
export interface ImportError extends ImportPosition {
  message: string;
}

/** What a parser yields for each location record: a fix to store, or the reason it cannot be stored. */
export type ParsedRecord = { fix: Fix } | { error: ImportError };

/** A file's bytes, as a request body or a file stream gives them. */
export type ByteSource = AsyncIterable<Uint8Array | string>;

/**
 * One import format: how it is recognised (media types, file name endings) and a streaming parser that reads the
 * file chunk by chunk and yields its records in file order, holding no more than the current record in memory. A
 * malformed file (broken XML or JSON) ends the parse with an ImportFileError; a bad record is yielded as an error.
 */
export interface ImportFormat {
  name: string;
  label: string;
  mediaTypes: readonly string[];
  extensions: readonly string[];
  parse(input: ByteSource): AsyncIterable<ParsedRecord>;
}

/** The file itself cannot be read on (not XML, not JSON, not the expected structure). */
export class ImportFileError extends Error {
  constructor(
    message: string,
    readonly position: ImportPosition = {},
  ) {
    super(message);
  }
}

/** A location of the file: every measure present (null when not known), and its time. */
export type Fix = { [K in keyof Required<LocationInput>]: K extends "timestamp" ? Date : Exclude<LocationInput[K], undefined> };

/**
 * A record's values as a fix, checked as the device endpoints check theirs (the API's ranges, a time after the epoch
 * and not in the future, errors naming the file's own field names); a record without a time is refused, as history
 * without one has no place in it.
 */
export function toRecord(position: ImportPosition, candidate: Candidate, names: FieldNames): ParsedRecord {
  const checked = checkPoint(candidate, names, { timeRequired: true });
  if ("point" in checked) {
    const p = checked.point;
    return {
      fix: {
        latitude: p.latitude,
        longitude: p.longitude,
        accuracy: p.accuracy ?? null,
        altitude: p.altitude ?? null,
        speed: p.speed ?? null,
        heading: p.heading ?? null,
        battery: p.battery ?? null,
        timestamp: p.timestamp!,
      },
    };
  }
  const message = "impossible" in checked ? checked.impossible : [...new Set(checked.problems)].join("; ");
  return { error: { ...position, message } };
}

/** A number from text; undefined when empty, NaN (refused by the schema) when not a number. */
export function numberOrUndefined(text: string | undefined | null): number | undefined {
  if (text === undefined || text === null) return undefined;
  const t = text.trim();
  return t === "" ? undefined : Number(t);
}

/** Chunks as text, decoded as UTF-8 across chunk boundaries. */
export async function* decodeText(input: ByteSource): AsyncIterable<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of input) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** A line longer than this holds no location: the file is refused rather than the line buffered. */
const MAX_LINE_CHARS = 64 * 1024;

/** The text's lines with their 1-based numbers, one at a time (a "\r\n" ending counts as one). */
export async function* lines(input: ByteSource): AsyncIterable<{ line: number; text: string }> {
  let buffered = "";
  let line = 0;
  for await (const text of decodeText(input)) {
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf("\n", start)) >= 0) {
      const row = buffered + text.slice(start, nl);
      buffered = "";
      start = nl + 1;
      yield { line: ++line, text: row.endsWith("\r") ? row.slice(0, -1) : row };
    }
    buffered += text.slice(start);
    if (buffered.length > MAX_LINE_CHARS) throw new ImportFileError(`line ${line + 1} is longer than ${MAX_LINE_CHARS} characters`, { line: line + 1 });
  }
  if (buffered) yield { line: ++line, text: buffered };
}
