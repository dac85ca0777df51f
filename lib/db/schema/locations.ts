import { sql } from "drizzle-orm";
import { doublePrecision, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns";

/** Where a location came from: the REST API, or a tracking app posting to its /ingest endpoint. */
// "import": read from a history file (POST …/imports).
export const LOCATION_SOURCES = ["api", "owntracks", "traccar", "overland", "import"] as const;
export type LocationSource = (typeof LOCATION_SOURCES)[number];

export const locations = pgTable(
  "locations",
  {
    id: id(),
    // No foreign key: a per-row check of the trackable was a third of a batch's insert. Every statement that stores
    // locations announces them in motion_inbox, whose foreign key checks (and key-share locks) each trackable once a
    // statement; a trackable's delete takes its locations with it (a trigger on trackables). Migration 0029.
    trackableId: uuid("trackable_id").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    accuracy: doublePrecision("accuracy"),
    altitude: doublePrecision("altitude"),
    speed: doublePrecision("speed"),
    heading: doublePrecision("heading"),
    battery: doublePrecision("battery"),
    timestamp: ts("timestamp").notNull(),
    receivedAt: ts("received_at").notNull().defaultNow(),
    source: text("source", { enum: LOCATION_SOURCES }).notNull().default("api"),
  },
  (t) => [
    // History pages, `latest` and lastLocation all read one trackable's points by (timestamp, id), in either
    // direction: one B-tree serves them all and keeps each page an index range scan at any table size.
    index("locations_trackable_ts_idx").on(t.trackableId, t.timestamp, t.id),
    // Motion finds a trackable's fixes stored since it last looked by id (insertion order, so a late fix counts too):
    // without this, each round would walk the trackable's whole history in the index above to find them.
    index("locations_trackable_id_idx").on(t.trackableId, t.id),
    // A tracking app resends a point it is unsure was stored; a resend is not stored again (lib/locations). Posts
    // skip the points already stored, and this index decides between two posts of one point at the same moment,
    // without a lock that would make every device post a transaction of its own. API points may repeat.
    uniqueIndex("locations_device_point_idx")
      .on(t.trackableId, t.timestamp, t.latitude, t.longitude)
      .where(sql`${t.source} <> 'api'`),
  ],
);

export type LocationRow = typeof locations.$inferSelect;
