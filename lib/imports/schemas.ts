import { z } from "zod";
import { IMPORT_STATUSES } from "@/lib/db/schema/imports";
import { Id, Timestamp } from "@/lib/schemas/common";
import { IMPORT_FORMAT_NAMES } from "./formats";

/** The largest file an import takes (the request body, or the file part of a multipart body): refused with 413 beyond. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
/** How many problems an import reports, in file order. */
export const MAX_IMPORT_ERRORS = 20;

const FORMAT_MESSAGE = `must be one of ${IMPORT_FORMAT_NAMES.map((f) => `"${f}"`).join(", ")}`;
export const ImportFormatParam = z.enum(IMPORT_FORMAT_NAMES, { error: FORMAT_MESSAGE }).meta({
  id: "ImportFormat",
  description:
    'The file\'s format: "gpx", "geojson" (a FeatureCollection of Points, or LineStrings with coordTimes), "csv" (the ' +
    'columns of the CSV export), "owntracks" (an OwnTracks Recorder .rec file) or "takeout" (Google Takeout Records.json)',
  example: "gpx",
});

export const ImportQuery = z.object({
  format: ImportFormatParam.optional().meta({
    description: "The file's format; default: from the file name's ending (multipart), else from the Content-Type",
  }),
  evaluate: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .optional()
    .transform((v) => v === "true")
    .meta({ description: "Evaluate the imported locations against geofences (events, webhooks); default false" }),
});
export type ImportQuery = z.infer<typeof ImportQuery>;

export const ImportProblem = z
  .object({
    line: z.number().int().optional().meta({ description: "The line of the file (GPX, CSV, .rec)" }),
    index: z.number().int().optional().meta({ description: "The position in the file's features or locations array (GeoJSON, Takeout), from 0" }),
    message: z.string(),
  })
  .meta({ id: "ImportProblem" });

export const Import = z
  .object({
    id: Id,
    trackableId: Id,
    status: z.enum(IMPORT_STATUSES).meta({
      description:
        "running while the uploaded file is read in the background (the POST answers with it); completed, or failed when " +
        "the file could not be read to its end (or the server stopped and the upload was lost): what was stored stays",
    }),
    format: ImportFormatParam,
    evaluate: z.boolean(),
    processed: z.number().int().meta({ description: "Location records read so far (updated after every batch of 1,000)" }),
    stored: z.number().int().meta({ description: "Locations stored so far" }),
    skipped: z.number().int().meta({ description: "Records not stored: invalid ones (see errors) and resends of stored locations" }),
    errors: z.array(ImportProblem).meta({ description: `The first ${MAX_IMPORT_ERRORS} problems, in file order` }),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: "Import" });
export type Import = z.infer<typeof Import>;
