import { csv } from "./csv";
import { geojson } from "./geojson";
import { gpx } from "./gpx";
import { owntracksRec } from "./owntracks-rec";
import { takeout } from "./takeout";
import type { ImportFormat } from "./types";

/** Every import format, by the name `?format=` takes. */
export const IMPORT_FORMATS = {
  gpx,
  geojson,
  csv,
  owntracks: owntracksRec,
  takeout,
} as const satisfies Record<string, ImportFormat>;

export type ImportFormatName = keyof typeof IMPORT_FORMATS;
export const IMPORT_FORMAT_NAMES = Object.keys(IMPORT_FORMATS) as ImportFormatName[];

/**
 * The format of a file from its name (the longest matching ending: "Records.json" is Takeout, any other ".json"
 * GeoJSON) or else its media type; null when neither tells.
 */
export function detectFormat(filename: string | null, mediaType: string | null): ImportFormatName | null {
  const name = filename?.toLowerCase() ?? "";
  let best: { format: ImportFormatName; length: number } | null = null;
  for (const format of IMPORT_FORMAT_NAMES) {
    for (const ext of IMPORT_FORMATS[format].extensions) {
      if (name.endsWith(ext) && (!best || ext.length > best.length)) best = { format, length: ext.length };
    }
  }
  if (best) return best.format;
  if (mediaType) for (const format of IMPORT_FORMAT_NAMES) if ((IMPORT_FORMATS[format].mediaTypes as readonly string[]).includes(mediaType)) return format;
  return null;
}
