import { boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { EVENTS, type EventType } from "../../events/registry";
import { accounts } from "./accounts";
import { createdAt, id, ts, updatedAt } from "./columns";

/** The event types an endpoint may subscribe to: the registry's deliverable ones (validated at the API's edge). */
export const WEBHOOK_EVENTS = EVENTS.deliverable;
export type WebhookEvent = EventType;

// Account-level webhook endpoints (/webhooks), each subscribed to some event kinds.
export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").array().$type<WebhookEvent[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    // Needed in clear to sign deliveries; never returned by the API.
    secret: text("secret"),
    // After a rotation, deliveries are also signed by the previous secret until it expires (webhook-signature).
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    // Switched off by the service (enabled = false): after too many failed deliveries in a row, or a 410 Gone.
    disabledAt: ts("disabled_at"),
    disabledReason: text("disabled_reason", { enum: ["failing", "gone"] }),
    // Deliveries that ended failed since the last one that succeeded (tests not counted).
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /webhooks pages by id; fan-out reads an account's (few) endpoints.
    index("webhooks_account_id_idx").on(t.accountId, t.id),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;
