import { env } from "@/lib/config/env";
import type { Ctx } from "@/lib/context";
import type { RequestLike } from "@/lib/http/body";
import { validationError } from "@/lib/http/errors";
import { bearer, errorResponse, toErrorResponse, withApiKey } from "@/lib/http/handler";
import { subscribe, type Frame } from "./bus";
import { streamSlots } from "./slots";
import { openSse, SSE_HEADERS, type PreparedStream } from "./sse";
import { StreamQuery } from "./schemas";
import { authorizeStreamToken, filterOf, matches, replay, resumePoint, wantsLocations } from "./stream";
import { STREAM_TOKEN_PREFIX } from "./tokens";

/**
 * The credentials of a stream request: a stream token (?access_token= or as Bearer), else the API key through the
 * one wrapper every /api/v1 route uses (its 401s, rate limit and headers). An error comes back as its Response.
 */
async function authorize(req: RequestLike, query: StreamQuery): Promise<{ keyId: string; ctx: Ctx; headers?: Record<string, string> } | Response> {
  const presented = bearer(req);
  const token = query.access_token ?? (presented?.startsWith(STREAM_TOKEN_PREFIX) ? presented : undefined);
  if (token) {
    try {
      return await authorizeStreamToken(token);
    } catch (err) {
      return toErrorResponse(err, req);
    }
  }
  let opened: { keyId: string; ctx: Ctx } | null = null;
  const reply = await withApiKey<RequestLike>(async ({ ctx, keyId }) => {
    opened = { keyId, ctx };
    return new Response(null, { status: 204 });
  })(req, { params: Promise.resolve({}) });
  if (!opened) return reply;
  // The stream's 200 carries the key's rate-limit headers, as every other authenticated reply does.
  const headers: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    if (name.startsWith("x-ratelimit-")) headers[name] = value;
  });
  return { ...(opened as { keyId: string; ctx: Ctx }), headers };
}

const frameText = (f: Frame, cursor: string | null) => `${cursor ? `id: ${cursor}\n` : ""}event: ${f.type}\ndata: ${f.data}\n\n`;

/**
 * GET /api/v1/stream: the checks (filters, credentials, resume cursor, the per-key limit) answer with an error
 * Response; otherwise the stream, registered as open (its place under the key's limit taken, on every server of a
 * scale-out: lib/stream/slots.ts), to be started on a sink.
 * Live frames are listened to before the replay starts and held meanwhile; once the replay is sent they follow, less
 * those the replay already sent: no gap and no duplicate across the switch.
 */
export async function prepareStream(like: RequestLike): Promise<Response | PreparedStream> {
  const parsed = StreamQuery.safeParse(Object.fromEntries(new URL(like.url).searchParams));
  if (!parsed.success) return toErrorResponse(validationError(parsed.error, "query"), like);
  const query = parsed.data;
  const auth = await authorize(like, query);
  if (auth instanceof Response) return auth;
  const { keyId, ctx, headers: rateLimitHeaders } = auth;

  const lastEventId = like.headers.get("last-event-id") || query.after;
  let afterId: string | null = null;
  try {
    if (lastEventId) afterId = await resumePoint({ ctx, cursor: lastEventId });
  } catch (err) {
    return toErrorResponse(err, like);
  }
  const max = env().STREAM_MAX_PER_KEY;
  const slot = await streamSlots().take(keyId, max);
  if (!slot) {
    return errorResponse("rate_limit_exceeded", `At most ${max} open streams per API key: close one first`, 429, { "Retry-After": "5" });
  }
  const filter = filterOf(query);
  return openSse({
    owner: keyId,
    slot,
    headers: { ...SSE_HEADERS, ...rateLimitHeaders },
    label: `account ${ctx.account.id}`,
    body(channel) {
      // The cursor that resumes after everything sent so far (location.updated frames carry it: they are not replayed).
      let cursor: string | null = lastEventId ?? null;
      let held: Frame[] | null = [];
      // The frames of one commit (or one page of the replay) go out in one write: a round's events reach a thousand
      // open streams as a thousand writes, not a thousand per event.
      const send = (frames: Iterable<Frame>) => {
        let text = "";
        for (const f of frames) {
          if (f.notice || !matches(filter, f)) continue;
          if (f.cursor) cursor = f.cursor;
          text += frameText(f, cursor);
        }
        if (text !== "") channel.write(text);
      };
      void (async () => {
        // A filter that can never match location.updated asks no server to build those events for it.
        const locations = wantsLocations(filter);
        const unsubscribe = await subscribe(
          ctx.account.id,
          (frames) => {
            if (held) held.push(...frames);
            else send(frames);
          },
          { locations },
        );
        channel.onClose(unsubscribe);
        if (channel.closed) return;
        const sent = new Set<string>();
        if (afterId) {
          for await (const page of replay({ ctx, afterId, filter })) {
            if (channel.closed) return;
            for (const f of page) sent.add(f.eventId!);
            send(page);
          }
        }
        const backlog = held;
        held = null;
        send(backlog.filter((f) => !(f.eventId && sent.has(f.eventId))));
      })().catch((err: unknown) => channel.fail(err));
    },
  });
}
