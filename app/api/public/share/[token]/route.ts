// GET /api/public/share/{token} — what a share link shows: the trackable's name and type, its latest position, the expiry (no key)
import { json, route } from "@/lib/http/handler";
import { withPublicAccess } from "@/lib/http/public";
import { publicShareLimits } from "@/lib/share-links/rate-limits";
import { viewSharedTrackable } from "@/lib/share-links/share-links";

const tokenOf = (params: Record<string, string | string[] | undefined>) => (typeof params.token === "string" ? params.token : "");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withPublicAccess(
    async ({ db, params }) => json(await viewSharedTrackable({ db, token: tokenOf(params) })),
    ({ req, params }) => publicShareLimits(req, tokenOf(params)),
  ),
});
