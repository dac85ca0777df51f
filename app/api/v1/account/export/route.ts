// POST /api/v1/account/export — request a download of everything in the workspace
import { json, route, withApiKey } from "@/lib/http/handler";
import { requestExport } from "@/lib/exports/exports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(async ({ ctx }) => {
    const created = await requestExport({ ctx });
    return json(created, 202, { Location: `/api/v1/account/exports/${created.id}` });
  }),
});
