// GET /api/v1/trackables/{trackableId}/locations/latest — the most recent location of one trackable
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { getLatestLocation } from "@/lib/locations/locations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) =>
    json(await getLatestLocation({ ctx, trackableId: pathId(params, "trackableId", "Trackable") })),
  ),
});
