import { log } from "@/lib/log/logger";
import { z } from "zod";
import { env } from "@/lib/config/env";
import type { Ctx } from "@/lib/context";
import { parseQuery } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { getLimiter, rateLimitHeaders } from "@/lib/rate-limit";
import { subscribe, type Frame } from "./bus";
import { openStreams as open, type OpenStream } from "./open";
import { MAX_BUFFERED_BYTES, SSE_HEADERS, type PreparedStream } from "./serve";
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
  const owner = `user:${userId}`;
  if ([...open()].filter((s) => s.keyId === owner).length >= DASHBOARD_STREAMS_PER_USER) {
    throw new ApiError("rate_limit_exceeded", `At most ${DASHBOARD_STREAMS_PER_USER} live pages open at once: close one first`, { "Retry-After": "5" });
  }
  return sseResponse(prepare(ctx.account.id, owner, scope, trackableId));
}

function prepare(accountId: string, owner: string, scope: LiveScope, trackableId: string | undefined): PreparedStream {
  let closed = false;
  let release = () => {};
  let sinkEnd = () => {};
  const finish = () => {
    if (closed) return;
    closed = true;
    release();
    open().delete(stream);
    sinkEnd();
  };
  const stream: OpenStream = { keyId: owner, end: finish };
  open().add(stream);
  return {
    headers: SSE_HEADERS,
    start(out) {
      sinkEnd = () => out.end();
      const write = (text: string) => {
        if (closed) return;
        if (out.write(text) > MAX_BUFFERED_BYTES) {
          closed = true;
          release();
          open().delete(stream);
          out.destroy();
        }
      };
      write("retry: 2000\n\n");
      const keepalive = setInterval(() => write(": keepalive\n\n"), env().STREAM_KEEPALIVE_MS);
      let unsubscribe: (() => void) | null = null;
      release = () => {
        clearInterval(keepalive);
        unsubscribe?.();
      };
      void subscribe(accountId, (frames) => {
        // One frame per batch, naming its kinds: the page re-reads everything anyway.
        const types = [...new Set(frames.filter((f) => concerns(scope, trackableId, f)).map((f) => f.type))];
        if (types.length > 0) write(`event: change\ndata: ${JSON.stringify({ types })}\n\n`);
      }).then(
        (off) => {
          unsubscribe = off;
          if (closed) off();
          // Listening from here on: the page's own catch-up refresh (on open) covers what came before.
          else write("event: ready\ndata: {}\n\n");
        },
        (err: unknown) => {
          log.error("[stream] the dashboard stream failed", err);
          if (closed) return;
          closed = true;
          clearInterval(keepalive);
          open().delete(stream);
          out.destroy();
        },
      );
      return { finish };
    },
  };
}
