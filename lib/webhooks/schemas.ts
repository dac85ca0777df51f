import { z } from "zod";
import { WebhookSecret, WebhookUrl } from "@/lib/geofences/schemas";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp, TimestampInput } from "@/lib/schemas/common";
import { EVENTS, type EventRegistry } from "@/lib/events/registry";
import { webhookEventKind, WebhookEventKind } from "./delivery-schemas";

/** An endpoint's subscriptions: event types from the registry (GET /event-types lists them). */
export const subscriptionEvents = <T extends string>(registry: EventRegistry<T>) =>
  z
    .array(webhookEventKind(registry))
    .min(1, "must list at least one event kind")
    .refine((a) => new Set(a).size === a.length, "must not repeat an event kind")
    .meta({ description: "Event kinds sent to this endpoint (at least one; GET /event-types lists them)", example: ["geofence.entry", "geofence.exit"] });
const Events = subscriptionEvents(EVENTS);
const Description = z.string().trim().max(500, "must be at most 500 characters");

export const Webhook = z
  .object({
    id: Id,
    url: z.string().meta({ example: "https://example.com/webhooks/fenceline" }),
    description: z.string(),
    events: z.array(WebhookEventKind),
    enabled: z.boolean(),
    disabledAt: Timestamp.nullable().meta({
      description: "When the service switched the endpoint off (enabled false); null otherwise. PATCH {\"enabled\": true} clears it",
    }),
    disabledReason: z
      .enum(["failing", "gone"])
      .nullable()
      .meta({ description: "Why: `failing` after WEBHOOK_DISABLE_AFTER_FAILURES failed deliveries in a row, `gone` after a 410 answer" }),
    secretSet: z.boolean().meta({ description: "Whether deliveries are signed (the secret itself is never returned)" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Webhook" });
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookInput = z
  .strictObject({
    url: WebhookUrl.meta({ description: "A public https URL (see the geofence webhookUrl rules)", example: "https://example.com/webhooks/fenceline" }),
    events: Events,
    secret: WebhookSecret.optional(),
    description: Description.default("").meta({ description: "Your note, at most 500 characters" }),
    enabled: z.boolean().default(true).meta({ description: "Disabled endpoints receive nothing" }),
  })
  .meta({ id: "CreateWebhookInput" });
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    secret: WebhookSecret.nullable().optional().meta({ description: "A new secret, or null to stop signing" }),
    description: Description.optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: "UpdateWebhookInput" });
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

export const WebhookListQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export const WebhookPage = pageOf(Webhook, "WebhookPage");

export const RotateSecretInput = z
  .strictObject({
    secret: WebhookSecret.optional().meta({
      description: "The new secret (8–256 characters; one that starts with whsec_ must continue with canonical padded base64). Omitted: the service generates one, whsec_ + base64 of 32 random bytes",
    }),
    expireCurrentIn: z
      .number()
      .int("must be a whole number of seconds")
      .min(0, "must be 0–604800 seconds")
      .max(604_800, "must be 0–604800 seconds")
      .default(86_400)
      .meta({ description: "Seconds the current secret keeps signing beside the new one (0: it stops at once). Default 86400 (one day)" }),
  })
  .meta({ id: "RotateSecretInput" });
export type RotateSecretInput = z.infer<typeof RotateSecretInput>;

export const RotatedSecret = z
  .object({
    secret: z.string().meta({ description: "The new secret, shown this once", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
    previousSecretExpiresAt: Timestamp.nullable().meta({
      description: "Until then webhook-signature also carries the previous secret's signature; null when there was no previous secret or it stopped at once",
    }),
  })
  .meta({ id: "RotatedSecret" });

export const RecoverInput = z
  .strictObject({
    since: TimestampInput.meta({ description: "Every delivery to this target that ended failed since this time (created at or after it) is sent again" }),
  })
  .meta({ id: "RecoverInput" });

export const RecoverResult = z
  .object({ redelivered: z.number().int().meta({ description: "How many failed deliveries were sent again as new deliveries", example: 3 }) })
  .meta({ id: "RecoverResult" });

export const EndpointTestInput = z
  .strictObject({
    event: WebhookEventKind.default("location.updated").meta({ description: "The event to simulate, with a sample payload (default location.updated)" }),
  })
  .meta({ id: "EndpointTestInput" });
