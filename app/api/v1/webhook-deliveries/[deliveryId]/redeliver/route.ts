// POST /api/v1/webhook-deliveries/{deliveryId}/redeliver — send the payload again as a new delivery (202)
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { redeliver } from "@/lib/webhooks/delivery-history";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(async ({ ctx, params }) => json(await redeliver({ ctx, id: pathId(params, "deliveryId", "Delivery") }), 202), {
    requiredPlan: "enterprise",
  }),
});
