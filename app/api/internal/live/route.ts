// GET /api/internal/live — the fingerprint of what a dashboard page shows, polled by its live refresher (session auth)
import { z } from "zod";
import { LIVE_SCOPES, liveFingerprint } from "@/lib/dashboard/live";
import { parseQuery } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { json, route } from "@/lib/http/handler";
import { withSession } from "@/lib/http/session";
import { getLimiter, rateLimitHeaders } from "@/lib/rate-limit";

const LiveQuery = z.object({
  scope: z.enum(LIVE_SCOPES, { error: `must be one of ${LIVE_SCOPES.join(", ")}` }),
  trackableId: z.uuid({ error: "must be a trackable id (UUID)" }).optional(),
});

// A budget of its own per user, apart from the API keys': a few open tabs polling every 2 s stay well inside it.
const LIVE_POLLS_PER_MINUTE = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withSession(async ({ req, ctx, userId }) => {
    const verdict = await getLimiter("live-user", LIVE_POLLS_PER_MINUTE, 60).limit(`user:${userId}`);
    if (!verdict.success) {
      const headers = rateLimitHeaders(verdict);
      throw new ApiError("rate_limit_exceeded", `Too many live updates: retry after ${headers["Retry-After"]} s.`, { "Retry-After": headers["Retry-After"]! });
    }
    const { scope, trackableId } = parseQuery(req, LiveQuery);
    if (scope === "trackable" && !trackableId) throw new ApiError("invalid_request", "Missing required parameter: trackableId");
    return json({ fingerprint: await liveFingerprint({ ctx, scope, trackableId: trackableId?.toLowerCase() }) });
  }),
});
