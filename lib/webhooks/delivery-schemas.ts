import { z } from "zod";
import { EVENTS, type EventRegistry } from "@/lib/events/registry";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp } from "@/lib/schemas/common";

/** An event type a webhook can receive: the registry's deliverable types. */
export const webhookEventKind = <T extends string>(registry: EventRegistry<T>) =>
  z.enum(registry.deliverable).meta({ description: "Event kind", example: "geofence.entry" });

export const WebhookEventKind = webhookEventKind(EVENTS);

export const DeliveryAttempt = z
  .object({
    number: z.number().int().meta({ description: "1 for the first attempt, then 2, 3… in the order they were made (retries and resends of interrupted attempts)" }),
    attemptedAt: Timestamp,
    statusCode: z.number().int().nullable().meta({ description: "HTTP status the receiver answered; null when there was no answer" }),
    responseBody: z.string().nullable().meta({ description: "The first 4096 bytes of the response body" }),
    error: z.string().nullable().meta({ description: "Why the attempt failed (time-out, connection error, refused target, non-2xx)" }),
    durationMs: z.number().int().nullable(),
    interrupted: z.boolean().meta({
      description:
        "The service stopped (crash, restart) during this attempt: it may or may not have reached the receiver, so it was sent again (de-duplicate on the delivery id). Interrupted attempts do not count toward the retry schedule.",
    }),
  })
  .meta({ id: "DeliveryAttempt" });

export const Delivery = z
  .object({
    id: Id.meta({ description: "Delivery id, sent as X-Service-Delivery on every attempt" }),
    event: WebhookEventKind,
    status: z.enum(["pending", "succeeded", "failed"]).meta({
      description: "pending while attempts remain; failed once the schedule is used up without a 2xx (or at once on a 410 Gone); succeeded as soon as one attempt got a 2xx",
    }),
    test: z.boolean().meta({ description: "Sent by POST /geofences/{id}/test-webhook" }),
    geofenceId: Id.nullable(),
    webhookId: Id.nullable().meta({ description: "The account webhook endpoint, or null for a geofence's own webhook" }),
    trackableId: Id.nullable(),
    eventId: Id.nullable().meta({
      description: "The recorded event (GET /events/{eventId}) this delivers; null for location.updated and tests",
    }),
    url: z.string().meta({ description: "Where it is sent" }),
    payload: z.record(z.string(), z.unknown()).meta({ description: "The JSON body sent" }),
    attempts: z.array(DeliveryAttempt),
    nextAttemptAt: Timestamp.nullable().meta({ description: "When the next retry is due, while pending" }),
    createdAt: Timestamp,
  })
  .meta({ id: "Delivery" });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryListQuery = z.object({
  geofenceId: z.uuid().optional().meta({ description: "Only deliveries of this geofence" }),
  webhookId: z.uuid().optional().meta({ description: "Only deliveries to this account webhook endpoint" }),
  trackableId: z.uuid().optional().meta({ description: "Only deliveries about this trackable" }),
  status: z.enum(["pending", "succeeded", "failed"]).optional(),
  event: WebhookEventKind.optional(),
  limit: limitParam(100, 20),
  cursor: cursorParam,
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;

export const DeliveryPage = pageOf(Delivery, "DeliveryPage");

export const TestWebhookInput = z
  .strictObject({
    eventType: z.enum(["entry", "exit"]).default("entry").meta({ description: 'The event to simulate: "entry" (default) or "exit"' }),
  })
  .meta({ id: "TestWebhookInput" });

// An exclusive union (oneOf) without an OpenAPI discriminator: a discriminator must be a string property, and
// generators would then type `success` as the string "true".
export const TestWebhookResult = z
  .xor([
    z
      .object({
        success: z.literal(true),
        message: z.string().meta({ example: "Test webhook sent for entry event" }),
        deliveryId: Id.meta({ description: "The test delivery: look the attempt up in the delivery history" }),
      })
      .meta({ id: "TestWebhookSucceeded", description: "The receiver answered 2xx" }),
    z
      .object({
        success: z.literal(false),
        message: z.string().meta({ example: "Test webhook for entry event failed (HTTP 500). Check your endpoint configuration." }),
      })
      .meta({ id: "TestWebhookFailed", description: "The receiver did not answer 2xx (or could not be reached); the reason is in the message" }),
  ])
  .meta({ id: "TestWebhookResult" });
