import { z } from "zod";
import { Location } from "@/lib/locations/schemas";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { MotionSettingsPatch, MotionSettingsSchema } from "@/lib/motion/schemas";
import { Id, Timestamp } from "@/lib/schemas/common";

export const MAX_METADATA_BYTES = 4096;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function hasForbiddenKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasForbiddenKey);
  if (value && typeof value === "object") {
    return Object.keys(value).some((k) => FORBIDDEN_KEYS.has(k) || hasForbiddenKey((value as Record<string, unknown>)[k]));
  }
  return false;
}

export const Metadata = z
  .record(z.string(), z.unknown())
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, {
    message: `must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
  })
  .refine((m) => !hasForbiddenKey(m), { message: 'must not use the keys "__proto__", "constructor" or "prototype"' })
  .meta({ description: `Free-form JSON object you control, at most ${MAX_METADATA_BYTES} bytes`, example: { fleet: "north" } });

const Name = z.string().trim().min(1, "must be 1–100 characters").max(100, "must be 1–100 characters");
const Type = z.string().trim().min(1, "must be 1–40 characters").max(40, "must be 1–40 characters");

const Tracking = z.enum(["active", "paused"]).meta({
  description: 'While "paused", every post of locations for the trackable (API and devices) is acknowledged and discarded',
  example: "active",
});

export const Trackable = z
  .object({
    id: Id,
    name: z.string().meta({ example: "Van 12" }),
    type: z.string().meta({ description: "Free label for the kind of device", example: "vehicle" }),
    metadata: z.record(z.string(), z.unknown()),
    tracking: Tracking,
    lastLocation: Location.nullable().meta({ description: "The most recent location by timestamp, or null" }),
    motion: MotionSettingsSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Trackable" });
export type Trackable = z.infer<typeof Trackable>;

export const CreateTrackableInput = z
  .strictObject({
    name: Name.meta({ description: "1–100 characters", example: "Van 12" }),
    type: Type.default("device").meta({ description: '1–40 characters, default "device"', example: "vehicle" }),
    metadata: Metadata.default({}),
    motion: MotionSettingsPatch.optional(),
  })
  .meta({ id: "CreateTrackableInput" });
export type CreateTrackableInput = z.infer<typeof CreateTrackableInput>;

export const UpdateTrackableInput = z
  .strictObject({
    name: Name.optional(),
    type: Type.optional(),
    metadata: Metadata.optional().meta({ description: "Replaces the whole metadata object" }),
    tracking: Tracking.optional(),
    motion: MotionSettingsPatch.optional().meta({ description: "Changes only the motion settings given" }),
  })
  .meta({ id: "UpdateTrackableInput" });
export type UpdateTrackableInput = z.infer<typeof UpdateTrackableInput>;

export const TrackableListQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export const TrackablePage = pageOf(Trackable, "TrackablePage");
