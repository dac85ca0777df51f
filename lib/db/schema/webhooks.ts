import { boolean, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, updatedAt } from "./columns";

export const WEBHOOK_EVENTS = [
  "geofence.entry",
  "geofence.exit",
  "geofence.dwell",
  "location.updated",
  "battery.low",
  "device.status_changed",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /webhooks pages by id; fan-out reads an account's (few) endpoints.
    index("webhooks_account_id_idx").on(t.accountId, t.id),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;
