import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { MotionSettingsInput } from "../../motion/segment";
import { accounts } from "./accounts";
import { createdAt, id, updatedAt } from "./columns";

export const trackables = pgTable(
  "trackables",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type").notNull().default("device"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    // "paused": every post for the trackable is acknowledged and discarded (lib/locations/locations.ts).
    tracking: text("tracking", { enum: ["active", "paused"] }).notNull().default("active"),
    // Trips, stops and speed settings (lib/motion): only the fields set; the rest take the defaults.
    motion: jsonb("motion").$type<MotionSettingsInput>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /trackables pages through an account's trackables by id (UUIDv7: creation order).
    index("trackables_account_id_idx").on(t.accountId, t.id),
  ],
);

export type TrackableRow = typeof trackables.$inferSelect;
