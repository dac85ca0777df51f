// POST /api/v1/geofences/{geofence_id}/test-webhook — send one test delivery to the geofence's webhook
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { TestWebhookInput } from "@/lib/webhooks/delivery-schemas";
import { sendTest } from "@/lib/webhooks/test-webhook";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(
    async ({ req, ctx, params }) => {
      const geofenceId = pathId(params, "geofence_id", "Geofence");
      const { eventType } = await parseBody(req, TestWebhookInput, { emptyAsObject: true });
      return json((await sendTest({ ctx, target: { geofenceId }, event: `geofence.${eventType}` })).answer);
    },
    { requiredPlan: "enterprise" },
  ),
});
