// GET /api/v1/geofences/{geofence_id}/occupants — the trackables inside the geofence now
import { listOccupants } from "@/lib/geofences/occupancy";
import { OccupancyQuery } from "@/lib/geofences/schemas";
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const geofenceId = pathId(params, "geofence_id", "Geofence");
    return json(await listOccupants({ ctx, geofenceId, query: parseQuery(req, OccupancyQuery) }));
  }),
});
