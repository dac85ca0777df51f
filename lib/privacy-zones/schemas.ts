import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Latitude, Longitude, Timestamp } from "@/lib/schemas/common";

export const MIN_ZONE_RADIUS_M = 50;
export const MAX_ZONE_RADIUS_M = 100_000;

const Name = z.string().trim().min(1, "must be 1–100 characters").max(100, "must be 1–100 characters").meta({ example: "Home" });
const Radius = z
  .number()
  .min(MIN_ZONE_RADIUS_M, `must be at least ${MIN_ZONE_RADIUS_M} m`)
  .max(MAX_ZONE_RADIUS_M, `must be at most ${MAX_ZONE_RADIUS_M} m`)
  .meta({ description: `Metres, ${MIN_ZONE_RADIUS_M}–${MAX_ZONE_RADIUS_M}`, example: 200 });
const TrackableIds = z
  .array(Id)
  .max(1000, "must list at most 1000 trackables")
  .nullable()
  .meta({ description: "The trackables the zone applies to; null: all of the account's" });
const Mode = z.enum(["drop", "blur"]).meta({
  description: '"drop": a fix inside is acknowledged but neither stored nor evaluated; "blur": stored and evaluated at the centre, accuracy = radius',
  example: "drop",
});

export const PrivacyZone = z
  .object({
    id: Id,
    name: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    radius: z.number(),
    trackableIds: z.array(Id).nullable(),
    mode: Mode,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "PrivacyZone" });
export type PrivacyZone = z.infer<typeof PrivacyZone>;

export const CreatePrivacyZoneInput = z
  .strictObject({
    name: Name,
    latitude: Latitude,
    longitude: Longitude,
    radius: Radius,
    trackableIds: TrackableIds.default(null),
    mode: Mode.default("drop"),
  })
  .meta({ id: "CreatePrivacyZoneInput" });
export type CreatePrivacyZoneInput = z.infer<typeof CreatePrivacyZoneInput>;

export const UpdatePrivacyZoneInput = z
  .strictObject({
    name: Name.optional(),
    latitude: Latitude.optional(),
    longitude: Longitude.optional(),
    radius: Radius.optional(),
    trackableIds: TrackableIds.optional(),
    mode: Mode.optional(),
  })
  .meta({ id: "UpdatePrivacyZoneInput" });
export type UpdatePrivacyZoneInput = z.infer<typeof UpdatePrivacyZoneInput>;

export const PrivacyZoneListQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export const PrivacyZonePage = pageOf(PrivacyZone, "PrivacyZonePage");
