// DELETE /api/internal/api-keys/{keyId} — revoke an API key for `npm run apikey:revoke`
import { revokeApiKeyById } from "@/lib/api-keys/keys";
import { withAdminToken } from "@/lib/http/admin";
import { notFound } from "@/lib/http/errors";
import { noContent, route } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  DELETE: withAdminToken(async ({ db, params }) => {
    const id = pathId(params, "keyId", "API key");
    if (!(await revokeApiKeyById(db, id))) throw notFound("API key", id);
    return noContent();
  }),
});
