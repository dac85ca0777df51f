import { boolean, doublePrecision, index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { geofences } from "./geofences";
import { trackables } from "./trackables";

// A row means "this trackable is inside this geofence"; no row means outside (the initial state). Entry inserts the
// row, exit deletes it.
export const geofenceMemberships = pgTable(
  "geofence_memberships",
  {
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    geofenceId: uuid("geofence_id").notNull().references(() => geofences.id, { onDelete: "cascade" }),
    // The location that made it enter.
    locationId: uuid("location_id").notNull(),
    enteredAt: ts("entered_at").notNull(),
    // geofence.dwell was emitted for this visit (once per visit).
    dwelt: boolean("dwelt").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.trackableId, t.geofenceId] }),
    // Unassigning trackables from a geofence clears their memberships of it.
    index("geofence_memberships_geofence_idx").on(t.geofenceId),
  ],
);

// A crossing waiting out its geofence's debounceSeconds: the first point on the other side of the trackable's state
// (inside when there is a membership, outside otherwise). Kept across batches; a point back on the old side deletes it.
export const geofencePendingCrossings = pgTable(
  "geofence_pending_crossings",
  {
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    geofenceId: uuid("geofence_id").notNull().references(() => geofences.id, { onDelete: "cascade" }),
    locationId: uuid("location_id").notNull(),
    timestamp: ts("timestamp").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    accuracy: doublePrecision("accuracy"),
  },
  (t) => [
    primaryKey({ columns: [t.trackableId, t.geofenceId] }),
    // Deleting a geofence clears its pending crossings.
    index("geofence_pending_crossings_geofence_idx").on(t.geofenceId),
  ],
);
