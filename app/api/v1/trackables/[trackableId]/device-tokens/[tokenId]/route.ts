// DELETE /api/v1/trackables/{trackableId}/device-tokens/{tokenId} — revoke a device token, effective at once
import { revokeDeviceToken } from "@/lib/devices/tokens";
import { noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  DELETE: withApiKey(async ({ ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    await revokeDeviceToken({ ctx, trackableId, id: pathId(params, "tokenId", "Device token") });
    return noContent();
  }),
});
