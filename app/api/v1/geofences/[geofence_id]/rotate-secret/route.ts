// POST /api/v1/geofences/{geofence_id}/rotate-secret — a new webhook signing secret, the current one kept for an overlap
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { rotateSecret } from "@/lib/webhooks/rotation";
import { RotateSecretInput } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(
    async ({ req, ctx, params }) => {
      const id = pathId(params, "geofence_id", "Geofence");
      const input = await parseBody(req, RotateSecretInput, { emptyAsObject: true });
      return json(await rotateSecret({ ctx, target: { geofenceId: id }, input }));
    },
    { requiredPlan: "enterprise" },
  ),
});
