import { sql } from "drizzle-orm";
import { doublePrecision, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { StoredMotionState } from "../../motion/state";
import { ts } from "./columns";
import { trackables } from "./trackables";

// Per-trackable evaluation state. Its row is locked (FOR UPDATE) while a trackable's new locations are evaluated, so
// concurrent evaluations of one trackable are serialized whichever runner (Inngest or embedded) started them.
export const trackableStates = pgTable(
  "trackable_states",
  {
    trackableId: uuid("trackable_id").primaryKey().references(() => trackables.id, { onDelete: "cascade" }),
    accountId: uuid("account_id").notNull(),
    // The newest location evaluated so far, by (timestamp, id): anything at or before it is stale.
    evaluatedTimestamp: ts("evaluated_timestamp"),
    evaluatedLocationId: uuid("evaluated_location_id"),
    // null: never seen; 'online' after a location; 'offline' after DEVICE_OFFLINE_AFTER_S without one.
    status: text("status", { enum: ["online", "offline"] }),
    // Server time the newest location was received (device clocks are not trusted for the offline sweep).
    lastSeenAt: ts("last_seen_at"),
    // Battery of the newest evaluated location that reported one (battery.low fires on the fall below the threshold).
    battery: doublePrecision("battery"),
    // Where segmentation stands (an open trip's measures and recent track): the next round resumes from it (lib/motion).
    motionState: jsonb("motion_state").$type<StoredMotionState>(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // The offline sweep finds online devices not seen since a cut-off.
    index("trackable_states_online_seen_idx").on(t.lastSeenAt).where(sql`${t.status} = 'online'`),
  ],
);

export type TrackableStateRow = typeof trackableStates.$inferSelect;
