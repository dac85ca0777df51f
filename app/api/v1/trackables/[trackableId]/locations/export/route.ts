// GET /api/v1/trackables/{trackableId}/locations/export — the history as a GPX, GeoJSON or CSV download, streamed
import { parseQuery } from "@/lib/http/body";
import { route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { exportLocations, exportResponse } from "@/lib/locations/export";
import { LocationExportQuery } from "@/lib/locations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    return exportResponse(await exportLocations({ ctx, trackableId, query: parseQuery(req, LocationExportQuery) }));
  }),
});
