import { z } from "zod";
import { Id, Latitude, Longitude, Timestamp } from "@/lib/schemas/common";

// The webhook payloads as zod schemas, for the OpenAPI document's `webhooks` section. payloads.ts builds them;
// payload-schemas.test.ts checks that what it builds is exactly what these describe.

const Beacon = z
  .object({ id: Id, name: z.string(), type: z.string().meta({ example: "vehicle" }) })
  .meta({ id: "WebhookBeacon", description: "The trackable" });
const GeofenceRef = z
  .object({ id: Id, name: z.string(), latitude: Latitude, longitude: Longitude, radius: z.number().meta({ description: "Metres" }) })
  .meta({ id: "WebhookGeofence" });
const LocationRef = z
  .object({
    latitude: Latitude,
    longitude: Longitude,
    accuracy: z.number().nullable().meta({ description: "Metres; null when not reported" }),
    timestamp: Timestamp,
  })
  .meta({ id: "WebhookLocation" });
const OccurredAt = Timestamp.meta({ description: "When it happened: the location's timestamp (for offline, the time of the sweep)" });

/** Only on synthetic transitions (a change to the geofence or trackable, not a crossing): why the trackable moved. */
const SyntheticReason = z.enum(["geofence_deleted", "unassigned", "trackable_deleted", "geofence_changed"]).optional().meta({
  description:
    "Present only on a synthetic transition, made at the moment of a change instead of by a location: the geofence was " +
    "deleted, the trackable unassigned or deleted, or the geofence reshaped. occurred_at is then the time of the change " +
    "and location the last evaluated one. Real crossings carry exactly the five fields above.",
});

const geofencePayload = (event: "geofence.entry" | "geofence.exit", id: string) =>
  z
    .object({ event: z.literal(event), occurred_at: OccurredAt, geofence: GeofenceRef, beacon: Beacon, location: LocationRef, reason: SyntheticReason })
    .meta({ id });

export const WEBHOOK_PAYLOADS = {
  "geofence.entry": geofencePayload("geofence.entry", "GeofenceEntryEvent").meta({ description: "The trackable entered the geofence" }),
  "geofence.exit": geofencePayload("geofence.exit", "GeofenceExitEvent").meta({ description: "The trackable left the geofence" }),
  "geofence.dwell": z
    .object({
      event: z.literal("geofence.dwell"),
      occurred_at: OccurredAt,
      geofence: GeofenceRef,
      beacon: Beacon,
      location: LocationRef,
      dwell: z.object({ seconds: z.number().int().meta({ description: "Whole seconds inside at that point" }) }),
    })
    .meta({
      id: "GeofenceDwellEvent",
      description: "The trackable has been inside the geofence for its dwellSeconds (once per visit), by the first point that long after the entry",
    }),
  "location.updated": z
    .object({ event: z.literal("location.updated"), occurred_at: OccurredAt, beacon: Beacon, location: LocationRef })
    .meta({ id: "LocationUpdatedEvent", description: "A stored location that is the newest for its trackable" }),
  "battery.low": z
    .object({
      event: z.literal("battery.low"),
      occurred_at: OccurredAt,
      beacon: Beacon,
      location: LocationRef,
      battery: z.object({ level: z.number().meta({ description: "Percent" }), threshold: z.number().meta({ description: "BATTERY_LOW_THRESHOLD" }) }),
    })
    .meta({ id: "BatteryLowEvent", description: "The battery fell below BATTERY_LOW_THRESHOLD" }),
  "device.status_changed": z
    .object({
      event: z.literal("device.status_changed"),
      occurred_at: OccurredAt,
      beacon: Beacon,
      status: z.object({ previous: z.enum(["online", "offline"]), current: z.enum(["online", "offline"]) }),
    })
    .meta({ id: "DeviceStatusChangedEvent", description: "online on a location after being offline or never seen; offline after DEVICE_OFFLINE_AFTER_S without one" }),
} as const;

/** The headers of every delivery attempt. */
export const DeliveryHeaders = z.object({
  "webhook-id": Id.meta({ description: "Standard Webhooks: the delivery id, the same on every retry (de-duplicate on it)" }),
  "webhook-timestamp": z.string().meta({ description: "Standard Webhooks: Unix seconds of this attempt", example: "1795332000" }),
  "webhook-signature": z.string().optional().meta({
    description:
      'Standard Webhooks, when a secret is set: `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by ' +
      "the base64-decoded part of a `whsec_` secret, or the secret's UTF-8 bytes otherwise; two space-separated " +
      "signatures (new and previous secret) during a rotation's overlap",
    example: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  }),
  "X-Service-Event": z.string().meta({ description: "The event kind", example: "geofence.entry" }),
  "X-Service-Delivery": Id.meta({ description: "The delivery id (as webhook-id)" }),
  "X-Service-Signature": z.string().optional().meta({ description: "When a secret is set: hex HMAC-SHA256 of the raw body keyed by the (current) secret" }),
  "User-Agent": z.string().meta({ example: "Fenceline-Webhooks/1.0 (+https://fenceline.example.com)" }),
});
