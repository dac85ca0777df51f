// GET /api/internal/trackables/{trackableId}/locations/export — the dashboard's download of the export (session auth)
import { parseQuery } from "@/lib/http/body";
import { route } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { withSession } from "@/lib/http/session";
import { exportLocations, exportResponse } from "@/lib/locations/export";
import { LocationExportQuery } from "@/lib/locations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withSession(async ({ req, ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    return exportResponse(await exportLocations({ ctx, trackableId, query: parseQuery(req, LocationExportQuery) }));
  }, { permission: "workspace.read" }),
});
