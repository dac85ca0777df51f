// GET /api/v1/audit-log — changes to the workspace's configuration, newest first (full-access keys only)
import { listAuditLog } from "@/lib/audit/audit-log";
import { AuditLogQuery } from "@/lib/audit/schemas";
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listAuditLog({ ctx, query: parseQuery(req, AuditLogQuery) }))),
});
