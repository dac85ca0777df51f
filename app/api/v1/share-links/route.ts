// GET /api/v1/share-links — list share links · POST /api/v1/share-links — create a share link
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { CreateShareLinkInput, ShareLinkListQuery } from "@/lib/share-links/schemas";
import { createShareLink, listShareLinks } from "@/lib/share-links/share-links";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listShareLinks({ ctx, query: parseQuery(req, ShareLinkListQuery) }))),
  POST: withApiKey(async ({ req, ctx }) =>
    json(await createShareLink({ ctx, input: await parseBody(req, CreateShareLinkInput) }), 201),
  ),
});
