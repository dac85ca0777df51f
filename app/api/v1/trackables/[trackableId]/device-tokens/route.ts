// POST /api/v1/trackables/{trackableId}/device-tokens — create a device token (shown once) · GET — list them
import { createDeviceToken, listDeviceTokens } from "@/lib/devices/tokens";
import { CreateDeviceTokenInput, DeviceTokenListQuery } from "@/lib/devices/schemas";
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

const trackableId = (params: Record<string, string | string[] | undefined>) => pathId(params, "trackableId", "Trackable");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const id = trackableId(params);
    return json(await listDeviceTokens({ ctx, trackableId: id, query: parseQuery(req, DeviceTokenListQuery) }));
  }),
  POST: withApiKey(async ({ req, ctx, params }) => {
    const id = trackableId(params);
    const input = await parseBody(req, CreateDeviceTokenInput);
    return json(await createDeviceToken({ ctx, trackableId: id, input }), 201);
  }),
});
