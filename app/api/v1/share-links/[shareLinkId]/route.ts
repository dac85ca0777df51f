// GET / DELETE /api/v1/share-links/{shareLinkId} — read or revoke one share link
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { getShareLink, revokeShareLink } from "@/lib/share-links/share-links";

const shareLinkId = (params: Record<string, string | string[] | undefined>) => pathId(params, "shareLinkId", "Share link");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getShareLink({ ctx, id: shareLinkId(params) }))),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await revokeShareLink({ ctx, id: shareLinkId(params) });
    return noContent();
  }),
});
