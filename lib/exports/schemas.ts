import { z } from "zod";
import { Id, Timestamp } from "@/lib/schemas/common";

/** The files of an export, in the zip's order: `<name>.jsonl`, one JSON object a line. */
export const EXPORT_RESOURCES = [
  "account",
  "members",
  "trackables",
  "locations",
  "device-tokens",
  "geofences",
  "webhooks",
  "events",
  "webhook-deliveries",
  "share-links",
  "notification-channels",
  "notification-rules",
  "notification-deliveries",
  "privacy-zones",
  "imports",
] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];

export const AccountExport = z
  .object({
    id: Id,
    // No "failed": nothing is built ahead, so nothing can fail before the download; a read that fails during it
    // breaks the download off (the client sees a truncated transfer, never a zip that looks whole).
    status: z.enum(["running", "completed"]).meta({
      description:
        "completed at once: the zip is built from the workspace's current data when it is downloaded. There is no " +
        "failed state: a read that fails while downloading breaks the download off, and downloading again retries it",
    }),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
    downloadUrl: z.string().nullable().meta({
      description: "GET it with the same API key: a zip of one `<resource>.jsonl` per resource; null until completed",
      example: "https://fenceline.example.com/api/v1/account/exports/0193a4c2-7d4e-7b8a-9c1d-2e3f4a5b6c7d/download",
    }),
  })
  .meta({ id: "AccountExport" });
export type AccountExport = z.infer<typeof AccountExport>;
