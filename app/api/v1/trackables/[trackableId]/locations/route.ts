// POST /api/v1/trackables/{trackableId}/locations — store one location or a batch · GET — location history
import { readJsonObject, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { ingestLocations, listLocations } from "@/lib/locations/locations";
import { LocationHistoryQuery, parsePostLocations } from "@/lib/locations/schemas";

const trackableId = (params: Record<string, string | string[] | undefined>) => pathId(params, "trackableId", "Trackable");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const id = trackableId(params);
    return json(await listLocations({ ctx, trackableId: id, query: parseQuery(req, LocationHistoryQuery) }));
  }),
  POST: withApiKey(async ({ req, ctx, params }) => {
    const id = trackableId(params);
    const inputs = parsePostLocations(await readJsonObject(req));
    return json({ data: await ingestLocations({ ctx, trackableId: id, inputs }) }, 201);
  }),
});
