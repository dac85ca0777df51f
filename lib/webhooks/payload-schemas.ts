import { z } from "zod";
import { Id } from "@/lib/schemas/common";
import { EVENTS, type EventRegistry, type EventType } from "@/lib/events/registry";

// The webhook payloads as zod schemas (the OpenAPI document's `webhooks` section), each from its event type's
// declaration; payload-schemas.test.ts checks that what the builders make is exactly what these describe.

/** Each deliverable type's payload schema, by type, in the registry's order. */
export function webhookPayloads<T extends string>(registry: EventRegistry<T>): Record<T, z.ZodObject> {
  return Object.fromEntries(registry.deliverable.map((t) => [t, registry.get(t)!.payload])) as Record<T, z.ZodObject>;
}

export const WEBHOOK_PAYLOADS = webhookPayloads<EventType>(EVENTS);

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
