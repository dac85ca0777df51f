// GET /api/v1/notification-deliveries — the notifications log, newest first, with filters
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { listNotificationDeliveries } from "@/lib/notifications/delivery-log";
import { NotificationDeliveryListQuery } from "@/lib/notifications/rule-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listNotificationDeliveries({ ctx, query: parseQuery(req, NotificationDeliveryListQuery) }))),
});
