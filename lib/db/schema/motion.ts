import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { trackables } from "./trackables";

// Trips and stops (lib/motion): computed in the evaluation round from a window of a trackable's fixes and replaced
// whenever a recompute of that window changes them. The account id is kept for tenancy and listing.
export const trips = pgTable(
  "trips",
  {
    id: id(),
    accountId: uuid("account_id").notNull(),
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["ongoing", "completed"] }).notNull(),
    startedAt: ts("started_at").notNull(),
    endedAt: ts("ended_at"),
    startLatitude: doublePrecision("start_latitude").notNull(),
    startLongitude: doublePrecision("start_longitude").notNull(),
    endLatitude: doublePrecision("end_latitude"),
    endLongitude: doublePrecision("end_longitude"),
    distance: doublePrecision("distance").notNull(),
    duration: doublePrecision("duration").notNull(),
    maxSpeed: doublePrecision("max_speed").notNull(),
    pointCount: integer("point_count").notNull(),
    // The time of the trip's newest fix (its track ends here while ongoing).
    lastFixAt: ts("last_fix_at").notNull(),
    // trip.started / trip.ended were recorded: a recompute that keeps the trip (same id) never sends them again.
    startedSent: boolean("started_sent").notNull().default(false),
    endedSent: boolean("ended_sent").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    // GET /trips pages an account's trips newest first, optionally of one trackable.
    index("trips_account_started_idx").on(t.accountId, t.startedAt.desc(), t.id.desc()),
    // The round's window read and GET /trips?trackableId= read one trackable's trips by start.
    index("trips_trackable_started_idx").on(t.trackableId, t.startedAt, t.id),
  ],
);

export const stops = pgTable(
  "stops",
  {
    id: id(),
    accountId: uuid("account_id").notNull(),
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    startedAt: ts("started_at").notNull(),
    endedAt: ts("ended_at"),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    duration: doublePrecision("duration").notNull(),
    // The time of the fix that confirmed the stop: segmentation resumes from here (lib/motion/segment.ts).
    anchorAt: ts("anchor_at").notNull(),
    // The geofences containing the stop's position when it was computed.
    geofenceIds: uuid("geofence_ids").array().notNull().default([]),
  },
  (t) => [
    // The round finds the last stop before a window's earliest new fix; GET /stops?trackableId= pages by start.
    index("stops_trackable_anchor_idx").on(t.trackableId, t.anchorAt),
    index("stops_trackable_started_idx").on(t.trackableId, t.startedAt, t.id),
    // GET /stops pages an account's stops newest first.
    index("stops_account_started_idx").on(t.accountId, t.startedAt.desc(), t.id.desc()),
  ],
);

// speed.exceeded was recorded for the episode that began at started_at: a recompute never sends it again.
export const speedEpisodes = pgTable(
  "speed_episodes",
  {
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    startedAt: ts("started_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.trackableId, t.startedAt] })],
);

// What motion has not yet taken in: each statement that stores locations adds a row per trackable (a trigger on
// locations, migration 0027), committed with the fixes, and the evaluation round deletes the rows it takes. A fix
// committed late, whatever its id or time, brings its row with it, so a round never searches the history for new fixes.
// Its foreign key is also what checks a stored location's trackable (locations has none: migration 0029).
export const motionInbox = pgTable(
  "motion_inbox",
  {
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    // The statement's earliest fix time of the trackable.
    earliest: ts("earliest").notNull(),
  },
  (t) => [
    // The round takes a trackable's rows.
    index("motion_inbox_trackable_idx").on(t.trackableId),
  ],
);

export type TripRow = typeof trips.$inferSelect;
export type StopRow = typeof stops.$inferSelect;
