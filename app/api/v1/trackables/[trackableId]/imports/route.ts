// POST /api/v1/trackables/{trackableId}/imports — read a history file (GPX, GeoJSON, CSV, OwnTracks .rec, Takeout) into its locations
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { startImport } from "@/lib/imports/imports";
import { ImportQuery } from "@/lib/imports/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(async ({ req, ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    const imported = await startImport({ ctx, trackableId, req, query: parseQuery(req, ImportQuery) });
    return json(imported, 202, { Location: `/api/v1/trackables/${trackableId}/imports/${imported.id}` });
  }),
});
