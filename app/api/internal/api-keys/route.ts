// POST /api/internal/api-keys — create an API key (and its account when needed) for `npm run apikey:create`
import { provisionApiKey, ProvisionInput } from "@/lib/api-keys/provision";
import { withAdminToken } from "@/lib/http/admin";
import { parseBody } from "@/lib/http/body";
import { json, route } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withAdminToken(async ({ req, db }) => json(await provisionApiKey(db, await parseBody(req, ProvisionInput)), 201)),
});
