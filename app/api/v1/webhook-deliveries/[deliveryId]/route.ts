// GET /api/v1/webhook-deliveries/{deliveryId} — one delivery with every attempt
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { getDelivery } from "@/lib/webhooks/delivery-history";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getDelivery({ ctx, id: pathId(params, "deliveryId", "Delivery") })), {
    requiredPlan: "enterprise",
  }),
});
