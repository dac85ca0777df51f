// GET /api/v1/account/exports/{exportId} — an export's status and download address
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { getExport } from "@/lib/exports/exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getExport({ ctx, exportId: pathId(params, "exportId", "Export") }))),
});
