import { z } from "zod";
import type { Ctx } from "@/lib/context";
import { parseQuery } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { getLimiter, rateLimitHeaders } from "@/lib/rate-limit";
import { subscribe, type Frame } from "./bus";
import { streamSlots } from "./slots";
import { openSse, SSE_HEADERS, type SseChannel } from "./sse";
import { sseResponse } from "./web";

// The dashboard's live pages listen to their account's frames on the same bus as GET /api/v1/stream (so a dashboard
// that listens makes location.updated be built, and frames cross servers), and re-render when one concerns what they
// show. A frame tells only that something changed: the page reads its data again itself.

export const LIVE_SCOPES = ["trackables", "trackable", "geofences", "deliveries", "events"] as const;
export type LiveScope = (typeof LIVE_SCOPES)[number];

const DashboardStreamQuery = z.object({
  scope: z.enum(LIVE_SCOPES, { error: `must be one of ${LIVE_SCOPES.join(", ")}` }),
  trackableId: z.uuid({ error: "must be a trackable id (UUID)" }).optional(),
});

/** Opens per user and minute: a few tabs, their reconnections and visibility changes stay well inside it. */
const OPENS_PER_MINUTE = 120;
/** Open dashboard streams per user at once. */
export const DASHBOARD_STREAMS_PER_USER = 20;

/**
 * Whether a frame concerns the page of `scope`. Lists of trackables and geofences show positions and states (every
 * event, location.updated included) and names; the events page shows recorded events and the names in them; the
 * deliveries page shows deliveries, made in the transaction that records their event and changed by their attempts;
 * one trackable's page shows what is about it, and the geofences' names.
 */
export function concerns(scope: LiveScope, trackableId: string | undefined, f: Pick<Frame, "type" | "trackableId" | "eventId" | "notice">): boolean {
  const event = !f.notice;
  switch (scope) {
    case "trackables":
      return event || f.type === "trackable";
    case "geofences":
      return event || f.type === "trackable" || f.type === "geofence";
    case "events":
      return (event && f.eventId !== null) || f.type === "trackable" || f.type === "geofence";
    case "deliveries":
      return (event && f.eventId !== null) || f.type === "delivery";
    case "trackable":
      return f.type === "geofence" || (f.type !== "delivery" && f.trackableId === trackableId);
  }
}

/**
 * GET /api/internal/stream?scope=&trackableId= for the signed-in user: a `change` frame (`data: {"types": […]}`) when
 * something the page shows changed, `retry: 2000` first and a keepalive comment like the public stream. 429 beyond
 * the user's budget of opens or of open streams.
 */
export async function dashboardStream({ req, ctx, userId }: { req: Request; ctx: Ctx; userId: string }): Promise<Response> {
  const verdict = await getLimiter("live-user", OPENS_PER_MINUTE, 60).limit(`user:${userId}`);
  if (!verdict.success) {
    const headers = rateLimitHeaders(verdict);
    throw new ApiError("rate_limit_exceeded", `Too many live updates: retry after ${headers["Retry-After"]} s.`, { "Retry-After": headers["Retry-After"]! });
  }
  const { scope, trackableId: given } = parseQuery(req, DashboardStreamQuery);
  if (scope === "trackable" && !given) throw new ApiError("invalid_request", "Missing required parameter: trackableId");
  const trackableId = given?.toLowerCase();
  const slot = await streamSlots().take(`user:${userId}`, DASHBOARD_STREAMS_PER_USER);
  if (!slot) {
    throw new ApiError("rate_limit_exceeded", `At most ${DASHBOARD_STREAMS_PER_USER} live pages open at once: close one first`, { "Retry-After": "5" });
  }
  return sseResponse(
    openSse({
      owner: `user:${userId}`,
      slot,
      headers: SSE_HEADERS,
      label: `the dashboard of account ${ctx.account.id}`,
      body: (channel) => listen(channel, ctx.account.id, userId, scope, trackableId),
    }),
  );
}

/**
 * Sends a `change` frame for each batch of frames that concerns the page, once listening (`ready`). The user's removal
 * from the workspace ends the stream at once, on whichever server it is open.
 */
function listen(channel: SseChannel, accountId: string, userId: string, scope: LiveScope, trackableId: string | undefined): void {
  // The pages that show positions ask for location.updated (the events and deliveries pages do not).
  const locations = concerns(scope, trackableId, { type: "location.updated", trackableId: trackableId ?? "", eventId: null });
  subscribe(
    accountId,
    (frames) => {
      if (frames.some((f) => f.notice && f.type === "member" && (JSON.parse(f.data) as { userId?: string }).userId === userId)) return channel.end();
      // One frame per batch, naming its kinds: the page re-reads everything anyway.
      const types = [...new Set(frames.filter((f) => concerns(scope, trackableId, f)).map((f) => f.type))];
      if (types.length > 0) channel.write(`event: change\ndata: ${JSON.stringify({ types })}\n\n`);
    },
    { locations },
  ).then(
    (off) => {
      channel.onClose(off);
      // Listening from here on: the page's own catch-up refresh (on open) covers what came before.
      if (!channel.closed) channel.write("event: ready\ndata: {}\n\n");
    },
    (err: unknown) => channel.fail(err),
  );
}
