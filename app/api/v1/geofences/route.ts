// GET /api/v1/geofences — list geofences · POST /api/v1/geofences — create a geofence
import { createGeofence, listGeofences } from "@/lib/geofences/geofences";
import { CreateGeofenceInput, GeofenceListQuery } from "@/lib/geofences/schemas";
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listGeofences({ ctx, query: parseQuery(req, GeofenceListQuery) }))),
  POST: withApiKey(async ({ req, ctx }) =>
    json(await createGeofence({ ctx, input: await parseBody(req, CreateGeofenceInput) }), 201),
  ),
});
