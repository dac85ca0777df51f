import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { parseIsoTime, type Candidate, type FieldNames } from "@/lib/devices/formats/common";
import { ImportFileError, numberOrUndefined, toRecord, type ImportFormat } from "./types";

const NAMES: FieldNames = {
  latitude: "latitude",
  longitude: "longitude",
  accuracy: "accuracy",
  altitude: "altitude",
  speed: "speed",
  heading: "heading",
  battery: "battery",
  timestamp: "timestamp",
};
/** A record longer than this is no location: refused rather than buffered. */
const MAX_RECORD_CHARS = 64 * 1024;
const REQUIRED = ["timestamp", "latitude", "longitude"] as const;

/**
 * CSV with a header row naming the columns, as Fenceline's own export writes it (id, timestamp, latitude, longitude,
 * accuracy, altitude, speed, heading, battery, source, receivedAt): timestamp, latitude and longitude are required, the
 * measures optional (empty: not known), other columns (the export's id, source, receivedAt) are ignored. Times are
 * ISO 8601 with a zone.
 */
export const csv: ImportFormat = {
  name: "csv",
  label: "CSV (Fenceline's export columns)",
  mediaTypes: ["text/csv"],
  extensions: [".csv"],
  async *parse(input) {
    const parser = parse({
      columns: (header: string[]) => header.map((h) => h.trim()),
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_CHARS,
    });
    const source = Readable.from(input);
    source.on("error", (err) => parser.destroy(err));
    source.pipe(parser);
    let checked = false;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
        if (!checked) {
          const missing = REQUIRED.filter((c) => !(c in record));
          if (missing.length > 0) throw new ImportFileError(`the header row lacks the column(s) ${missing.join(", ")}`, { line: 1 });
          checked = true;
        }
        const candidate: Candidate = {
          latitude: numberOrUndefined(record.latitude),
          longitude: numberOrUndefined(record.longitude),
          accuracy: numberOrUndefined(record.accuracy),
          altitude: numberOrUndefined(record.altitude),
          speed: numberOrUndefined(record.speed),
          heading: numberOrUndefined(record.heading),
          battery: numberOrUndefined(record.battery),
          timestamp: csvTime(record.timestamp),
        };
        yield toRecord({ line: info.lines }, candidate, NAMES);
      }
    } catch (err) {
      if (err instanceof ImportFileError) throw err;
      const e = err as { message?: string; lines?: number };
      throw new ImportFileError(`not valid CSV: ${e.message ?? String(err)}`, e.lines ? { line: e.lines } : {});
    }
  },
};

function csvTime(text: string | undefined): Candidate["timestamp"] {
  if (text === undefined || text.trim() === "") return undefined;
  return parseIsoTime(text) ?? { problem: "must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T07:33:55.123Z" };
}
