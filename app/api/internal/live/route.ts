// GET /api/internal/live — the fingerprint of what a dashboard page shows, polled by its live refresher (session auth)
import { z } from "zod";
import { getSession } from "@/lib/auth/session";
import { LIVE_SCOPES, liveFingerprint } from "@/lib/dashboard/live";
import { ApiError } from "@/lib/http/errors";
import { json, route, toErrorResponse } from "@/lib/http/handler";
import { getLimiter, rateLimitHeaders } from "@/lib/rate-limit";

const LiveQuery = z.object({
  scope: z.enum(LIVE_SCOPES, { error: `must be one of ${LIVE_SCOPES.join(", ")}` }),
  trackableId: z.uuid({ error: "must be a trackable id (UUID)" }).optional(),
});

// A budget of its own per user, apart from the API keys': a few open tabs polling every 2 s stay well inside it.
const LIVE_POLLS_PER_MINUTE = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: async (req) => {
    try {
      const session = await getSession();
      if (!session) throw new ApiError("unauthorized", "Sign in to the dashboard first");
      const verdict = await getLimiter("live-user", LIVE_POLLS_PER_MINUTE, 60).limit(`user:${session.user.id}`);
      if (!verdict.success) {
        const headers = rateLimitHeaders(verdict);
        throw new ApiError("rate_limit_exceeded", `Too many live updates: retry after ${headers["Retry-After"]} s.`, { "Retry-After": headers["Retry-After"]! });
      }
      const url = new URL(req.url);
      const parsed = LiveQuery.safeParse(Object.fromEntries(url.searchParams));
      if (!parsed.success) {
        throw new ApiError("invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; "));
      }
      const { scope, trackableId } = parsed.data;
      if (scope === "trackable" && !trackableId) throw new ApiError("invalid_request", "Missing required parameter: trackableId");
      const fingerprint = await liveFingerprint({ ctx: session.ctx, scope, trackableId: trackableId?.toLowerCase() });
      return json({ fingerprint });
    } catch (err) {
      return toErrorResponse(err, req);
    }
  },
});
