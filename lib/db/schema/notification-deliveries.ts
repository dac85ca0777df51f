import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { accounts } from "./accounts";
import { createdAt, id, ts, updatedAt } from "./columns";
import { notificationChannels } from "./notification-channels";
import { notificationRules } from "./notification-rules";

export const NOTIFICATION_DELIVERY_STATUSES = ["pending", "sent", "failed", "suppressed"] as const;
export const SUPPRESSION_REASONS = ["schedule", "cooldown", "stale"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** What a delivery sends, worded when the event was matched (names and local time as they were then). */
export interface StoredMessage {
  title: string;
  body: string;
  link: string | null;
  tags: string[];
}

// One recorded event for one channel through one rule: sent by the deliver-notification workflow (pending → sent or
// failed), or kept as `suppressed` with its reason so the log says why nothing arrived. The log outlives the rule
// and channel (their columns go null).
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    ruleId: uuid("rule_id").references(() => notificationRules.id, { onDelete: "set null" }),
    channelId: uuid("channel_id").references(() => notificationChannels.id, { onDelete: "set null" }),
    // The events log has no foreign keys (see events.ts); neither does this reference to it.
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    trackableId: uuid("trackable_id").notNull(),
    eventOccurredAt: ts("event_occurred_at").notNull(),
    status: text("status", { enum: NOTIFICATION_DELIVERY_STATUSES }).notNull(),
    reason: text("reason", { enum: SUPPRESSION_REASONS }),
    message: jsonb("message").$type<StoredMessage>().notNull(),
    // Places of the retry schedule used up by completed attempts (interrupted ones do not count).
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /notification-deliveries pages an account's log by id, optionally filtered.
    index("notification_deliveries_account_idx").on(t.accountId, t.id),
    index("notification_deliveries_account_rule_idx").on(t.accountId, t.ruleId, t.id),
    index("notification_deliveries_account_channel_idx").on(t.accountId, t.channelId, t.id),
    index("notification_deliveries_account_event_idx").on(t.accountId, t.eventId, t.id),
    // The cooldown looks up the rule's last notified event of a trackable and type.
    index("notification_deliveries_cooldown_idx")
      .on(t.ruleId, t.trackableId, t.eventType, t.eventOccurredAt)
      .where(sql`status <> 'suppressed'`),
    // An event reaches a channel once, whatever number of rules route it there.
    uniqueIndex("notification_deliveries_event_channel_idx").on(t.eventId, t.channelId).where(sql`status <> 'suppressed'`),
  ],
);

export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;

// Every attempt of a notification delivery, numbered from 1. Inserted (claimed) before the send, so an attempt cut
// short by a crash is found (completed_at null), closed as interrupted and sent again, as webhook attempts are.
export const notificationDeliveryAttempts = pgTable(
  "notification_delivery_attempts",
  {
    deliveryId: uuid("delivery_id").notNull().references(() => notificationDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    attemptedAt: ts("attempted_at").notNull(),
    completedAt: ts("completed_at"),
    statusCode: integer("status_code"),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);
