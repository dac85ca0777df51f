import { IMPORT_FORMATS, IMPORT_FORMAT_NAMES } from "./formats";
import { MAX_IMPORT_BYTES } from "./schemas";

/** What the dashboard's import panel offers: read from the formats' declarations and the size limit, never copied. */
export interface ImportChoices {
  /** The file input's `accept`: every format's file name endings (those that are extensions) and media types. */
  accept: string;
  /** Each format's label, in the registry's order. */
  labels: string[];
  /** The size limit, in the words the panel shows ("512 MB"). */
  maxSize: string;
}

export function importChoices(): ImportChoices {
  const formats = IMPORT_FORMAT_NAMES.map((name) => IMPORT_FORMATS[name]);
  // "records.json" is a name ending, not an extension `accept` takes: its ".json" is listed by GeoJSON.
  const extensions = formats.flatMap((f) => f.extensions.filter((e) => e.startsWith(".")));
  const mediaTypes = formats.flatMap((f) => f.mediaTypes);
  return {
    accept: [...new Set([...extensions, ...mediaTypes])].join(","),
    labels: formats.map((f) => f.label),
    maxSize: `${MAX_IMPORT_BYTES / (1024 * 1024)} MB`,
  };
}
