// The request bodies, and dashboard action inputs, that are validated in a worker thread when large
// (lib/http/body-pool.ts): those whose validation costs milliseconds each, such as a polygon's geometry checks. By
// name, because a schema cannot cross to a thread: each worker imports this table and looks it up. One line per body.
import { CreateGeofenceInput, UpdateGeofenceInput } from "@/lib/geofences/schemas";

export const OFF_THREAD_BODIES = { CreateGeofenceInput, UpdateGeofenceInput } as const;
export type OffThreadBody = keyof typeof OFF_THREAD_BODIES;
