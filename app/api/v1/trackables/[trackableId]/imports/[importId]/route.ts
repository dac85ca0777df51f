// GET /api/v1/trackables/{trackableId}/imports/{importId} — an import's progress and outcome
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { getImport } from "@/lib/imports/imports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    const importId = pathId(params, "importId", "Import");
    return json(await getImport({ ctx, trackableId, importId }));
  }),
});
