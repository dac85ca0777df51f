// GET / PATCH / DELETE /api/v1/geofences/{geofence_id} — read, update or delete one geofence
import { deleteGeofence, getGeofence, updateGeofence } from "@/lib/geofences/geofences";
import { UpdateGeofenceInput } from "@/lib/geofences/schemas";
import { parseBody } from "@/lib/http/body";
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

const geofenceId = (params: Record<string, string | string[] | undefined>) => pathId(params, "geofence_id", "Geofence");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getGeofence({ ctx, id: geofenceId(params) }))),
  PATCH: withApiKey(async ({ req, ctx, params }) => {
    const id = geofenceId(params);
    return json(await updateGeofence({ ctx, id, input: await parseBody(req, UpdateGeofenceInput) }));
  }),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await deleteGeofence({ ctx, id: geofenceId(params) });
    return noContent();
  }),
});
