import { boolean, index, integer, json, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts, updatedAt } from "./columns";
import { events } from "./events";
import { geofences } from "./geofences";
import { trackables } from "./trackables";
import { webhooks } from "./webhooks";

// One event sent to one endpoint, with every attempt in webhook_delivery_attempts. The history outlives the geofence,
// endpoint or trackable it came from (their ids are kept in the payload; the columns go null).
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull().default("pending"),
    test: boolean("test").notNull().default(false),
    geofenceId: uuid("geofence_id").references(() => geofences.id, { onDelete: "set null" }),
    webhookId: uuid("webhook_id").references(() => webhooks.id, { onDelete: "set null" }),
    trackableId: uuid("trackable_id").references(() => trackables.id, { onDelete: "set null" }),
    // The recorded event this delivers (null for location.updated, which is not recorded, and for tests).
    eventId: uuid("event_id").references(() => events.id, { onDelete: "set null" }),
    // Target and signing secret as they were when the event happened: retries go where the first attempt went.
    url: text("url").notNull(),
    secret: text("secret"),
    // The target's previous secret during a rotation's overlap: attempts before it expires carry its signature too.
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    // json, not jsonb: it keeps the payload's key order, so every attempt sends (and signs) the same bytes.
    payload: json("payload").$type<Record<string, unknown>>().notNull(),
    // Places of the retry schedule used up by completed attempts (interrupted ones do not count).
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /webhook-deliveries pages an account's deliveries by id, optionally filtered.
    index("webhook_deliveries_account_id_idx").on(t.accountId, t.id),
    index("webhook_deliveries_account_geofence_idx").on(t.accountId, t.geofenceId, t.id),
    index("webhook_deliveries_account_webhook_idx").on(t.accountId, t.webhookId, t.id),
    index("webhook_deliveries_account_status_idx").on(t.accountId, t.status, t.id),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
