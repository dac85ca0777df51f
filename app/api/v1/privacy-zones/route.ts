// GET /api/v1/privacy-zones — list privacy zones · POST /api/v1/privacy-zones — create one
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { createPrivacyZone, listPrivacyZones } from "@/lib/privacy-zones/privacy-zones";
import { CreatePrivacyZoneInput, PrivacyZoneListQuery } from "@/lib/privacy-zones/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listPrivacyZones({ ctx, query: parseQuery(req, PrivacyZoneListQuery) }))),
  POST: withApiKey(async ({ req, ctx }) => json(await createPrivacyZone({ ctx, input: await parseBody(req, CreatePrivacyZoneInput) }), 201)),
});
