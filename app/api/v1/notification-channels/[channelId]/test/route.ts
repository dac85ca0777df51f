// POST /api/v1/notification-channels/{channelId}/test — send a test message through the channel now
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { testChannel } from "@/lib/notifications/notification-channels";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(async ({ ctx, params }) => json(await testChannel({ ctx, id: pathId(params, "channelId", "Notification channel") }))),
});
