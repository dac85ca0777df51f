// GET /api/v1/trackables/{trackableId}/geofences — the geofences the trackable is inside now
import { listTrackableGeofences } from "@/lib/geofences/occupancy";
import { OccupancyQuery } from "@/lib/geofences/schemas";
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    return json(await listTrackableGeofences({ ctx, trackableId, query: parseQuery(req, OccupancyQuery) }));
  }),
});
