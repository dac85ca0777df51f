import "@/lib/schemas/zod-in-browser";
import { z } from "zod";
import type { Plan } from "@/lib/context";
import { Id, Latitude, Longitude, Timestamp } from "@/lib/schemas/common";
import type { BeaconPayload, GeofencePayload, LocationPayload } from "./payloads";

/** What a sample payload (a test delivery's body) is made of. */
export interface SampleParts {
  beacon: BeaconPayload;
  geofence: GeofencePayload;
  location: LocationPayload;
}

/**
 * One event type, declared once: everything else (subscriptions, the OpenAPI `webhooks` section, test deliveries,
 * GET /event-types, the dashboard's filters and labels) derives from it through the registry.
 */
export interface EventDeclaration<T extends string = string, P extends z.ZodObject = z.ZodObject, R extends boolean = boolean> {
  type: T;
  /** A few words for filters and badges ("Entered a geofence"). */
  label: string;
  /** One sentence: what happened. */
  description: string;
  /** Kept in the events log (on every plan). */
  recorded: R;
  /** The plans whose webhooks receive it (none: never delivered). */
  deliveredOn: readonly Plan[];
  /** The exact webhook payload, with an OpenAPI component id in its meta. */
  payload: P;
  /** A sample payload (what a test delivery sends). */
  sample: (parts: SampleParts) => z.infer<P>;
}

/** Declares an event type (the identity function, keeping the literal type name and the payload's type). */
export const defineEvent = <const T extends string, P extends z.ZodObject, const R extends boolean>(d: EventDeclaration<T, P, R>): EventDeclaration<T, P, R> => d;

// Building blocks of the payload schemas.
export const BeaconSchema = z
  .object({ id: Id, name: z.string(), type: z.string().meta({ example: "vehicle" }) })
  .meta({ id: "WebhookBeacon", description: "The trackable" });
export const GeofenceRefSchema = z
  .object({ id: Id, name: z.string(), latitude: Latitude, longitude: Longitude, radius: z.number().meta({ description: "Metres" }) })
  .meta({ id: "WebhookGeofence" });
export const LocationRefSchema = z
  .object({
    latitude: Latitude,
    longitude: Longitude,
    accuracy: z.number().nullable().meta({ description: "Metres; null when not reported" }),
    timestamp: Timestamp,
  })
  .meta({ id: "WebhookLocation" });
export const OccurredAt = Timestamp.meta({ description: "When it happened: the location's timestamp (for offline, the time of the sweep)" });
