import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { geofences } from "./geofences";
import { trackables } from "./trackables";

// The trackables assigned to a geofence whose allTrackables is false.
export const geofenceTrackables = pgTable(
  "geofence_trackables",
  {
    geofenceId: uuid("geofence_id").notNull().references(() => geofences.id, { onDelete: "cascade" }),
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.geofenceId, t.trackableId] }),
    // Evaluation asks which geofences a trackable is assigned to; deleting a trackable removes its rows.
    index("geofence_trackables_trackable_idx").on(t.trackableId),
  ],
);
