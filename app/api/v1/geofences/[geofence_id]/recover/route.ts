// POST /api/v1/geofences/{geofence_id}/recover — send every delivery of the geofence's webhook that failed since a time again (202)
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { recoverFailed } from "@/lib/webhooks/delivery-history";
import { RecoverInput } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(
    async ({ req, ctx, params }) => {
      const geofenceId = pathId(params, "geofence_id", "Geofence");
      const { since } = await parseBody(req, RecoverInput);
      return json(await recoverFailed({ ctx, target: { geofenceId }, since }), 202);
    },
    { requiredPlan: "enterprise" },
  ),
});
