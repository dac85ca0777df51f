import { boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, updatedAt } from "./columns";

export interface NotificationSchedule {
  timeZone: string;
  days: Array<"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun">;
  from: string;
  to: string;
}

export interface NotificationTemplate {
  title?: string;
  body?: string;
}

// Which recorded events go to which notification channels, when: types, optional trackable and geofence filters, a
// weekly schedule in the rule's time zone, a cooldown and a maximum event age. The id lists are arrays, not join
// tables: a rule is read whole whenever an event is matched, and a deleted channel is dropped from them on delete.
export const notificationRules = pgTable(
  "notification_rules",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    eventTypes: text("event_types").array().notNull(),
    // null: every trackable / any geofence.
    trackableIds: uuid("trackable_ids").array(),
    geofenceIds: uuid("geofence_ids").array(),
    channelIds: uuid("channel_ids").array().notNull(),
    schedule: jsonb("schedule").$type<NotificationSchedule>(),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    maxEventAgeSeconds: integer("max_event_age_seconds").notNull().default(900),
    template: jsonb("template").$type<NotificationTemplate>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The API lists an account's rules newest first by id; the consumer reads an account's rules on every recording.
    index("notification_rules_account_idx").on(t.accountId, t.id),
  ],
);

export type NotificationRuleRow = typeof notificationRules.$inferSelect;
