// GET / PATCH / DELETE /api/v1/privacy-zones/{zoneId} — read, update or delete a privacy zone
import { parseBody } from "@/lib/http/body";
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { deletePrivacyZone, getPrivacyZone, updatePrivacyZone } from "@/lib/privacy-zones/privacy-zones";
import { UpdatePrivacyZoneInput } from "@/lib/privacy-zones/schemas";

const zoneId = (params: Record<string, string | string[] | undefined>) => pathId(params, "zoneId", "Privacy zone");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getPrivacyZone({ ctx, id: zoneId(params) }))),
  PATCH: withApiKey(async ({ req, ctx, params }) => {
    const id = zoneId(params);
    return json(await updatePrivacyZone({ ctx, id, input: await parseBody(req, UpdatePrivacyZoneInput) }));
  }),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await deletePrivacyZone({ ctx, id: zoneId(params) });
    return noContent();
  }),
});
