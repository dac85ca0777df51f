import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { geofences } from "./geofences";
import { trackables } from "./trackables";

// A row means "this trackable is inside this geofence"; no row means outside (the initial state). Entry inserts the
// row, exit deletes it; deleting a geofence or unassigning a trackable removes rows without emitting anything.
export const geofenceMemberships = pgTable(
  "geofence_memberships",
  {
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    geofenceId: uuid("geofence_id").notNull().references(() => geofences.id, { onDelete: "cascade" }),
    // The location that made it enter.
    locationId: uuid("location_id").notNull(),
    enteredAt: ts("entered_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.trackableId, t.geofenceId] }),
    // Unassigning trackables from a geofence clears their memberships of it.
    index("geofence_memberships_geofence_idx").on(t.geofenceId),
  ],
);
