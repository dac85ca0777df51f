// GET /api/v1/webhook-deliveries — the delivery history, newest first, with filters
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { listDeliveries } from "@/lib/webhooks/delivery-history";
import { DeliveryListQuery } from "@/lib/webhooks/delivery-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listDeliveries({ ctx, query: parseQuery(req, DeliveryListQuery) })), {
    requiredPlan: "enterprise",
  }),
});
