// GET / PATCH / DELETE /api/v1/notification-channels/{channelId} — read, update or delete a notification channel
import { parseBody } from "@/lib/http/body";
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { deleteChannel, getChannel, updateChannel } from "@/lib/notifications/notification-channels";
import { UpdateNotificationChannelInput } from "@/lib/notifications/schemas";

const channelId = (params: Record<string, string | string[] | undefined>) => pathId(params, "channelId", "Notification channel");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getChannel({ ctx, id: channelId(params) }))),
  PATCH: withApiKey(async ({ req, ctx, params }) => {
    const id = channelId(params);
    return json(await updateChannel({ ctx, id, input: await parseBody(req, UpdateNotificationChannelInput) }));
  }),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await deleteChannel({ ctx, id: channelId(params) });
    return noContent();
  }),
});
