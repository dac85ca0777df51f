// POST /api/internal/trackables/{trackableId}/imports — the dashboard's upload of a history file (session auth) · GET —
// the trackable's newest import, which the dashboard polls for progress while its upload runs
import { parseQuery } from "@/lib/http/body";
import { json, route } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { withSession } from "@/lib/http/session";
import { latestImport, startImport } from "@/lib/imports/imports";
import { ImportQuery } from "@/lib/imports/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withSession(async ({ ctx, params }) => json({ data: await latestImport({ ctx, trackableId: pathId(params, "trackableId", "Trackable") }) }), { permission: "workspace.read" }),
  POST: withSession(async ({ req, ctx, params }) => {
    const trackableId = pathId(params, "trackableId", "Trackable");
    return json(await startImport({ ctx, trackableId, req, query: parseQuery(req, ImportQuery) }), 202);
  }, { permission: "imports.write" }),
});
