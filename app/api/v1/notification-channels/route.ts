// GET /api/v1/notification-channels — list notification channels · POST /api/v1/notification-channels — create one
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { createChannel, listChannels } from "@/lib/notifications/notification-channels";
import { CreateNotificationChannelInput, NotificationChannelListQuery } from "@/lib/notifications/schemas";

// Notifications to people are on every plan (no requiredPlan).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listChannels({ ctx, query: parseQuery(req, NotificationChannelListQuery) }))),
  POST: withApiKey(async ({ req, ctx }) => json(await createChannel({ ctx, input: await parseBody(req, CreateNotificationChannelInput) }), 201)),
});
