import { integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { webhookDeliveries } from "./webhook-deliveries";

// Every attempt of a delivery. The row is inserted (claimed) before the request is sent: the primary key makes sure
// no attempt number is ever sent twice, even when a crashed run of the workflow is replayed.
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    deliveryId: uuid("delivery_id").notNull().references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    attemptedAt: ts("attempted_at").notNull(),
    // null until the attempt finished (an attempt interrupted by a crash is closed with an error on replay).
    completedAt: ts("completed_at"),
    statusCode: integer("status_code"),
    // The first 4096 bytes of the response body.
    responseBody: text("response_body"),
    error: text("error"),
    durationMs: integer("duration_ms"),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);

export type WebhookDeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
