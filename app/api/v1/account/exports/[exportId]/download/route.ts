// GET /api/v1/account/exports/{exportId}/download — the workspace as a zip of JSON lines, streamed
import { route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { downloadExport } from "@/lib/exports/exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => downloadExport({ ctx, exportId: pathId(params, "exportId", "Export") })),
});
