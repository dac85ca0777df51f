import { z } from "zod";
import { SpeedLimit } from "@/lib/motion/schemas";
import { env } from "@/lib/config/env";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Latitude, Longitude, Timestamp } from "@/lib/schemas/common";
import { checkWebhookUrl } from "@/lib/webhooks/url-policy";

import { MAX_RADIUS_M, MIN_RADIUS_M } from "./limits";
import { PolygonGeometryInput, SHAPES } from "./shapes";
import { Metadata } from "@/lib/trackables/schemas";

export { MAX_RADIUS_M } from "./limits";
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_ASSIGNED_TRACKABLES = 1000;

const NotificationTypeValues = ["none", "webhook"] as const;
export type NotificationType = (typeof NotificationTypeValues)[number];

const Name = z
  .string()
  .trim()
  .min(1, "must be 1–100 characters")
  .max(100, "must be 1–100 characters")
  .meta({ description: "1–100 characters (surrounding whitespace is trimmed)", example: "Depot" });

const Radius = z
  .number()
  .min(MIN_RADIUS_M, `must be between ${MIN_RADIUS_M} and ${MAX_RADIUS_M} metres`)
  .max(MAX_RADIUS_M, `must be between ${MIN_RADIUS_M} and ${MAX_RADIUS_M} metres`)
  .meta({ description: `Radius of the circle in metres, ${MIN_RADIUS_M}–${MAX_RADIUS_M}`, example: 250 });

const NotificationTypeInput = z.enum(NotificationTypeValues, { error: 'must be "none" or "webhook"' }).meta({
  description:
    '"webhook" sends geofence.entry and geofence.exit to webhookUrl and requires the enterprise plan (403 plan_required ' +
    'otherwise); "none" sends nothing.',
  example: "webhook",
});

export const WebhookUrl = z
  .string()
  .trim()
  .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .superRefine((url, ctx) => {
    if (url.length > MAX_WEBHOOK_URL_LENGTH) return; // one message is enough
    const reason = checkWebhookUrl(url, { allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_URLS });
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  });

const WEBHOOK_URL_RULES =
  'The endpoint that receives the deliveries; required when notificationType is "webhook". It may also be set while ' +
  'notificationType is "none": it is checked, stored and used once notifications are switched on. A public https ' +
  "URL of at most 2048 characters, without credentials; IP literals must be public unicast addresses and local " +
  "names (localhost, *.local, *.internal, single-label hosts…) are refused, without a DNS look-up (the server " +
  "setting WEBHOOK_ALLOW_PRIVATE_URLS=true allows http and private or local hosts, for local development).";
const WEBHOOK_URL_EXAMPLE = "https://example.com/webhooks/fenceline";

// Standard base64 with its "=" padding and zero bits after the last byte: the only form that Standard Webhooks libraries
// (the standardwebhooks npm package) decode to the same key as this server; anything else never verifies for them.
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;
const WHSEC = "whsec_";

export const WebhookSecret = z
  .string()
  .min(8, "must be 8–256 characters")
  .max(256, "must be 8–256 characters")
  .refine((s) => !s.startsWith(WHSEC) || (s.length > WHSEC.length && CANONICAL_BASE64.test(s.slice(WHSEC.length))), {
    message:
      'starts with "whsec_", so the rest must be standard base64 (A–Z, a–z, 0–9, "+", "/"), padded with "=" to a ' +
      'multiple of 4 characters, as Standard Webhooks libraries decode it (e.g. whsec_ + base64 of 32 random bytes). ' +
      'Without the "whsec_" prefix any 8–256 characters are used as given',
  })
  .meta({
    description:
      "8–256 characters. A secret that starts with whsec_ must continue with canonical padded base64 (the key is the " +
      "decoded bytes, as Standard Webhooks libraries read it); any other is used as given. Write-only: responses only " +
      "say webhookSecretSet. When set, every delivery carries X-Service-Signature, the hex HMAC-SHA256 of the raw body " +
      'keyed by this secret. It may be set while notificationType is "none".',
    example: "whsec_5f2b9c0e1d7a4e3b",
  });

const TrackableIdEntry = z
  .uuid({ error: "must be a trackable id (UUID)" })
  .overwrite((s) => s.toLowerCase());

const TrackableIds = z
  .array(TrackableIdEntry, { error: "must be an array of trackable ids, or null for every trackable" })
  .max(MAX_ASSIGNED_TRACKABLES, `must hold at most ${MAX_ASSIGNED_TRACKABLES} ids`)
  .superRefine((ids, ctx) => {
    if (ids.length > MAX_ASSIGNED_TRACKABLES) return; // already refused as a whole; no need for 1000 more messages
    const first = new Map<string, number>();
    ids.forEach((id, i) => {
      const seen = first.get(id);
      if (seen === undefined) first.set(id, i);
      else ctx.addIssue({ code: "custom", path: [i], message: `duplicate of trackableIds[${seen}]` });
    });
  })
  .nullable()
  .meta({
    description:
      `The trackables this geofence applies to: null (or omitted on create) means every trackable of the account, ` +
      `including ones created later; otherwise up to ${MAX_ASSIGNED_TRACKABLES} distinct ids of this account's ` +
      "trackables ([] assigns none). An id that is not one of the account's trackables is a 400 naming its entry.",
    example: ["01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55"],
  });

const ShapeInput = z.enum(SHAPES, { error: 'must be "circle" or "polygon"' }).meta({
  description:
    '"circle" (latitude, longitude and radius) or "polygon" (geometry). A polygon refuses latitude, longitude and ' +
    "radius, a circle refuses geometry (400 naming the field).",
  example: "circle",
});

const int = (what: string, max: number) =>
  z
    .number()
    .int(`must be a whole number of ${what}, 0–${max}`)
    .min(0, `must be a whole number of ${what}, 0–${max}`)
    .max(max, `must be a whole number of ${what}, 0–${max}`);

const ExitBuffer = z
  .number()
  .min(0, "must be between 0 and 10000 metres")
  .max(10_000, "must be between 0 and 10000 metres")
  .meta({
    description:
      "Hysteresis, metres (0–10000, default 0): once inside, a trackable exits only when it is more than this far " +
      "outside the boundary. Entry is unchanged.",
    example: 25,
  });
const DebounceSeconds = int("seconds", 86_400).meta({
  description:
    "Seconds (0–86400, default 0) a trackable must stay on the new side before a crossing (either way) counts, by " +
    "point timestamps. The event is emitted by the first point at least this long after the first point on the new " +
    "side, and carries that first point's time and location; a point back on the old side in between cancels it silently.",
  example: 30,
});
const DwellSeconds = int("seconds", 604_800).meta({
  description:
    "Seconds (0 = off, up to 604800): geofence.dwell is emitted once per visit, by the first point at least this long " +
    "after the entry's occurred_at while still inside.",
  example: 600,
});
const GeofenceSpeedLimit = SpeedLimit.meta({ description: "m/s inside this geofence (the lower of it and the trackable's motion.speedLimit wins); null = none", example: 8.3 });

const MaxAccuracy = z
  .number()
  .min(0, "must be between 0 and 100000 metres")
  .max(100_000, "must be between 0 and 100000 metres")
  .nullable()
  .meta({
    description:
      "Metres, or null for no limit (default): points whose accuracy is worse (larger) than this are stored but " +
      "neither enter nor leave this geofence. A point without accuracy is evaluated.",
    example: 100,
  });
const Tag = z.string().trim().min(1, "must be 1–64 characters").max(64, "must be 1–64 characters").nullable().meta({
  description: "A label to group geofences by (GET /geofences?tag=), or null",
  example: "depots",
});
const ExternalId = z.string().trim().min(1, "must be 1–128 characters").max(128, "must be 1–128 characters").nullable().meta({
  description: "Your own identifier for the geofence, unique in the account (a duplicate is 409 conflict), or null",
  example: "store-0042",
});

const CIRCLE_ONLY = 'only for shape "circle" (a polygon is given by geometry)';
const POLYGON_ONLY = 'only for shape "polygon"';

export const Geofence = z
  .object({
    id: Id,
    name: z.string().meta({ example: "Depot" }),
    shape: z.enum(SHAPES).meta({ description: "circle or polygon", example: "circle" }),
    geometry: z
      .object({ type: z.literal("Polygon"), coordinates: z.array(z.array(z.tuple([z.number(), z.number()]))) })
      .nullable()
      .meta({ description: "A polygon's GeoJSON Polygon, as stored; null for a circle" }),
    latitude: z.number().meta({ description: "Centre, WGS84 latitude (a polygon's centroid, to 7 decimals)", example: 52.52 }),
    longitude: z.number().meta({ description: "Centre, WGS84 longitude (a polygon's centroid, to 7 decimals)", example: 13.405 }),
    radius: z
      .number()
      .meta({
        description: "Metres: a circle's radius, or the distance from a polygon's centroid to its farthest vertex, rounded up to the centimetre",
        example: 250,
      }),
    notificationType: z.enum(NotificationTypeValues).meta({ description: "How entries and exits are notified", example: "webhook" }),
    webhookUrl: z.string().nullable().meta({ description: "Where deliveries go, or null", example: "https://example.com/webhooks/fenceline" }),
    webhookSecretSet: z.boolean().meta({ description: "Whether a signing secret is set (the secret itself is never returned)" }),
    trackableIds: z
      .array(Id)
      .nullable()
      .meta({ description: "null: the geofence applies to every trackable; else the assigned trackables' ids, sorted" }),
    exitBuffer: z.number().meta({ description: "Metres beyond the boundary a trackable inside must be to exit" }),
    debounceSeconds: z.number().int().meta({ description: "Seconds on the new side before a crossing counts" }),
    dwellSeconds: z.number().int().meta({ description: "Seconds inside before geofence.dwell (0 = off)" }),
    maxAccuracy: z.number().nullable().meta({ description: "Worst point accuracy (metres) that can enter or leave; null = no limit" }),
    speedLimit: z.number().nullable().meta({ description: "m/s: speed.exceeded inside it above this (the lower of it and the trackable's limit wins); null = none" }),
    tag: z.string().nullable(),
    externalId: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    occupantCount: z.number().int().meta({ description: "How many trackables are inside now (read-only; see /geofences/{id}/occupants)", example: 2 }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Geofence" });
export type Geofence = z.infer<typeof Geofence>;

/** The circle/polygon field rules shared by create and update: which fields a shape takes and refuses. */
export function shapeIssues(
  shape: "circle" | "polygon",
  input: { latitude?: unknown; longitude?: unknown; radius?: unknown; geometry?: unknown },
  required: boolean,
): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  if (shape === "polygon") {
    for (const f of ["latitude", "longitude", "radius"] as const) if (input[f] !== undefined) out.push({ path: [f], message: CIRCLE_ONLY });
    if (required && input.geometry === undefined) out.push({ path: ["geometry"], message: 'required when shape is "polygon"' });
  } else {
    if (input.geometry !== undefined) out.push({ path: ["geometry"], message: POLYGON_ONLY });
    if (required) for (const f of ["latitude", "longitude", "radius"] as const) if (input[f] === undefined) out.push({ path: [f], message: 'required when shape is "circle"' });
  }
  return out;
}

export const CreateGeofenceInput = z
  .strictObject({
    name: Name,
    shape: ShapeInput.default("circle"),
    latitude: Latitude.optional().meta({ description: "Centre of a circle, WGS84 latitude (required for a circle)" }),
    longitude: Longitude.optional().meta({ description: "Centre of a circle, WGS84 longitude (required for a circle)" }),
    radius: Radius.optional(),
    geometry: PolygonGeometryInput.optional(),
    exitBuffer: ExitBuffer.default(0),
    debounceSeconds: DebounceSeconds.default(0),
    dwellSeconds: DwellSeconds.default(0),
    maxAccuracy: MaxAccuracy.default(null),
    speedLimit: GeofenceSpeedLimit.default(null),
    tag: Tag.optional(),
    externalId: ExternalId.optional(),
    metadata: Metadata.default({}),
    notificationType: NotificationTypeInput.default("none"),
    webhookUrl: WebhookUrl.nullable().optional().meta({ description: WEBHOOK_URL_RULES, example: WEBHOOK_URL_EXAMPLE }),
    webhookSecret: WebhookSecret.nullable().optional(),
    trackableIds: TrackableIds.optional(),
  })
  .superRefine((input, ctx) => {
    // Runs with the field checks, so one 400 names every problem.
    for (const issue of shapeIssues(input.shape, input, true)) ctx.addIssue({ code: "custom", ...issue });
    if (input.notificationType === "webhook" && (input.webhookUrl === undefined || input.webhookUrl === null)) {
      ctx.addIssue({ code: "custom", path: ["webhookUrl"], message: 'required when notificationType is "webhook"' });
    }
  })
  .meta({ id: "CreateGeofenceInput" });
export type CreateGeofenceInput = z.infer<typeof CreateGeofenceInput>;

export const UpdateGeofenceInput = z
  .strictObject({
    name: Name.optional(),
    shape: ShapeInput.optional().meta({
      description: 'Changes the shape: to "polygon" with geometry; to "circle" with latitude, longitude and radius',
    }),
    latitude: Latitude.optional(),
    longitude: Longitude.optional(),
    radius: Radius.optional(),
    geometry: PolygonGeometryInput.optional().meta({ description: "Replaces a polygon's rings" }),
    exitBuffer: ExitBuffer.optional(),
    debounceSeconds: DebounceSeconds.optional(),
    dwellSeconds: DwellSeconds.optional(),
    maxAccuracy: MaxAccuracy.optional(),
    speedLimit: GeofenceSpeedLimit.optional(),
    tag: Tag.optional(),
    externalId: ExternalId.optional(),
    metadata: Metadata.optional().meta({ description: "Replaces the whole metadata object" }),
    notificationType: NotificationTypeInput.optional(),
    webhookUrl: WebhookUrl.nullable()
      .optional()
      .meta({
        description: `${WEBHOOK_URL_RULES} null removes the URL (a 400 while notificationType is, or becomes, "webhook").`,
        example: WEBHOOK_URL_EXAMPLE,
      }),
    webhookSecret: WebhookSecret.nullable().optional().meta({ description: "null removes the secret" }),
    trackableIds: TrackableIds.optional().meta({
      description: "Replaces the assignment: null switches back to every trackable; an array assigns exactly those",
    }),
  })
  .meta({
    id: "UpdateGeofenceInput",
    description:
      "Every field is optional; omitted fields keep their value. On the free plan, a geofence whose notificationType " +
      'would be "webhook" after the change is a 403 plan_required.',
  });
export type UpdateGeofenceInput = z.infer<typeof UpdateGeofenceInput>;

export const GeofenceListQuery = z.object({
  limit: limitParam(100, 20),
  cursor: cursorParam,
  tag: z.string().min(1).max(64).optional().meta({ description: "Only the geofences with this tag" }),
  externalId: z.string().min(1).max(128).optional().meta({ description: "Only the geofence with this externalId (at most one)" }),
  trackableId: z
    .uuid({ error: "must be a trackable id (UUID)" })
    .overwrite((s) => s.toLowerCase())
    .optional()
    .meta({
      description:
        "Only the geofences that apply to this trackable: those assigned to it and those that apply to every trackable",
    }),
});
export type GeofenceListQuery = z.infer<typeof GeofenceListQuery>;

export const GeofencePage = pageOf(Geofence, "GeofencePage");

export const OccupancyQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export type OccupancyQuery = z.infer<typeof OccupancyQuery>;

export const Occupant = z
  .object({
    trackableId: Id,
    name: z.string().meta({ example: "Van 7" }),
    type: z.string().meta({ example: "vehicle" }),
    enteredAt: Timestamp.meta({ description: "When this visit began: the occurredAt of its geofence.entry" }),
  })
  .meta({ id: "Occupant" });
export type Occupant = z.infer<typeof Occupant>;
export const OccupantPage = pageOf(Occupant, "OccupantPage");

export const TrackableGeofence = z
  .object({
    geofenceId: Id,
    name: z.string().meta({ example: "Depot" }),
    enteredAt: Timestamp.meta({ description: "When this visit began: the occurredAt of its geofence.entry" }),
  })
  .meta({ id: "TrackableGeofence" });
export type TrackableGeofence = z.infer<typeof TrackableGeofence>;
export const TrackableGeofencePage = pageOf(TrackableGeofence, "TrackableGeofencePage");
