// POST /api/v1/trackables/{trackableId}/locations — store one location or a batch · GET — location history
// (The app server answers the POST itself, with the same handler: lib/server/lean-path.ts.)
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { listLocations } from "@/lib/locations/locations";
import { postLocations } from "@/lib/locations/post";
import { LocationHistoryQuery } from "@/lib/locations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const id = pathId(params, "trackableId", "Trackable");
    return json(await listLocations({ ctx, trackableId: id, query: parseQuery(req, LocationHistoryQuery) }));
  }),
  POST: postLocations,
});
