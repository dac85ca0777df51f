import { boolean, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { webhookDeliveries } from "./webhook-deliveries";

// Every attempt of a delivery, numbered 1, 2, 3… in the order they were made. The row is inserted (claimed) before the
// request is sent, so an attempt cut short by a crash is found (completed_at null) and closed as interrupted when the
// workflow is replayed; interrupted attempts do not use up the retry schedule (webhook_deliveries.attempt_count).
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    deliveryId: uuid("delivery_id").notNull().references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    attemptedAt: ts("attempted_at").notNull(),
    // null until the attempt finished (an attempt interrupted by a crash is closed on replay, with interrupted set).
    completedAt: ts("completed_at"),
    statusCode: integer("status_code"),
    // The first 4096 bytes of the response body.
    responseBody: text("response_body"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    // The process stopped during this attempt: it may or may not have reached the receiver, and was sent again.
    interrupted: boolean("interrupted").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);

export type WebhookDeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
