import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

export const accounts = pgTable(
  "accounts",
  {
    id: id(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "enterprise"] }).notNull(),
    // Bumped in the same transaction as every change to the account's geofences or their assignments: evaluation
    // reads it to know whether the geofences it holds in memory are current (lib/geofences/fence-cache.ts).
    geofencesVersion: integer("geofences_version").notNull().default(0),
    // Bumped in the same transaction as every change to the account's privacy zones: ingestion stores only when the
    // zones it applied from memory are of this version (lib/privacy-zones/zone-cache.ts).
    privacyVersion: integer("privacy_version").notNull().default(0),
    // Bumped in the same transaction as every change to the account's notification rules or channels: matching reads
    // it to know whether the rules it holds in memory are current (lib/notifications/rule-cache.ts).
    notificationsVersion: integer("notifications_version").notNull().default(0),
    // Days each kind of row is kept (null: forever); the retention job deletes what is older (lib/accounts/retention.ts).
    locationRetentionDays: integer("location_retention_days"),
    eventRetentionDays: integer("event_retention_days"),
    deliveryRetentionDays: integer("delivery_retention_days"),
    createdAt: createdAt(),
  },
  (t) => [
    // apikey:create finds (or creates) an account by its slug.
    uniqueIndex("accounts_slug_key").on(t.slug),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
