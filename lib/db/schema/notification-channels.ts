import { boolean, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, updatedAt } from "./columns";

// Where notifications to people go: an e-mail list, an ntfy topic, a Gotify app, a Telegram chat, a Discord or Slack
// webhook. `config` is the channel type's config (lib/notifications/channels), secrets included: the API never returns them.
export const notificationChannels = pgTable(
  "notification_channels",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The API lists an account's channels newest first, paged by id (time-ordered UUIDs).
    index("notification_channels_account_idx").on(t.accountId, t.id),
  ],
);

export type NotificationChannelRow = typeof notificationChannels.$inferSelect;
