import { z } from "zod";
import { WebhookSecret, WebhookUrl } from "@/lib/geofences/schemas";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp } from "@/lib/schemas/common";
import { WebhookEventKind } from "./delivery-schemas";

const Events = z
  .array(WebhookEventKind)
  .min(1, "must list at least one event kind")
  .refine((a) => new Set(a).size === a.length, "must not repeat an event kind")
  .meta({ description: "Event kinds sent to this endpoint (at least one)", example: ["geofence.entry", "geofence.exit"] });
const Description = z.string().trim().max(500, "must be at most 500 characters");

export const Webhook = z
  .object({
    id: Id,
    url: z.string().meta({ example: "https://example.com/webhooks/fenceline" }),
    description: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
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
