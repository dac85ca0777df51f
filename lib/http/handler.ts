import { verifyApiKey } from "@/lib/api-keys/keys";
import { allows, requiredScope } from "@/lib/api-keys/scopes";
import type { Ctx, Plan } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { idempotencyKeyOf, withIdempotencyKey } from "@/lib/idempotency/idempotency";
import { apiLimiter, authFailureLimiter, rateLimitHeaders, type RateLimitResult } from "@/lib/rate-limit";
import { STREAM_TOKEN_PREFIX } from "@/lib/stream/tokens";
import type { RequestLike } from "./body";
import { clientIp } from "./client-ip";
import { ApiError, errorBody, insufficientScope, type ErrorCode } from "./errors";
import { log } from "@/lib/log/logger";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

type Params = Record<string, string | string[] | undefined>;
export interface RouteContext {
  params: Promise<Params>;
}
export type RouteHandler = (req: Request, context: RouteContext) => Promise<Response>;

/** What a handler is called with; `R` is RequestLike for a handler the app server's lean path also calls. */
export interface HandlerArgs<R extends RequestLike = Request> {
  req: R;
  ctx: Ctx;
  params: Params;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export const noContent = (): Response => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

export function errorResponse(
  code: ErrorCode,
  message: string,
  status: number,
  headers: Record<string, string> = {},
  details: Record<string, string> = {},
) {
  // RFC 6750: a 401 names the scheme the client must use (unless the endpoint chose another).
  const challenge: Record<string, string> =
    status === 401 && !Object.keys(headers).some((h) => h.toLowerCase() === "www-authenticate") ? { "WWW-Authenticate": 'Bearer realm="fenceline"' } : {};
  return json(errorBody(code, message, details), status, { ...challenge, ...headers });
}

/** ApiError → its envelope; anything else → a generic 500 (the detail goes to the log, never to the client). */
export function toErrorResponse(err: unknown, req: Pick<Request, "method" | "url">): Response {
  if (err instanceof ApiError) return errorResponse(err.code, err.message, err.status, err.headers, err.details);
  log.error(`[api] ${req.method} ${new URL(req.url).pathname} failed:`, err);
  return errorResponse("internal_error", "An internal error occurred. Try again later.", 500);
}

/** The credential of an `Authorization: Bearer <credential>` header, or null. */
export function bearer(req: Pick<Request, "headers">): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The one wrapper every authenticated /api/v1 handler goes through: Bearer key → account (401), the per-key rate
 * limit (429, and X-RateLimit-* on every response), the key's scopes (403, the scope derived from the path and method by
 * lib/api-keys/scopes.ts), the plan (403), then the handler; every error becomes the
 * JSON envelope and nothing else ever reaches the client.
 */
export function withApiKey<R extends RequestLike = Request>(
  handler: (args: HandlerArgs<R> & { keyId: string }) => Promise<Response>,
  opts: { requiredPlan?: Plan } = {},
): (req: R, context: RouteContext) => Promise<Response> {
  return async (req, context) => {
    let limitHeaders: Record<string, string> = {};
    try {
      const presented = bearer(req);
      if (!presented) throw new ApiError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>");
      const db = await getDb();
      // Failed authentications are counted per client address: once over the budget, every keyed request from that
      // address is refused before its key is looked at, so a guess that happens to be right cannot be told apart.
      const ip = clientIp(req.headers);
      const [failures, verified] = await Promise.all([authFailureLimiter().peek(ip), verifyApiKey(db, presented)]);
      if (!failures.success) throw authFailuresExceeded(failures);
      if (!verified) {
        if (presented.startsWith(STREAM_TOKEN_PREFIX)) throw new ApiError("unauthorized", "A stream token opens GET /api/v1/stream only: send an API key here");
        const counted = await authFailureLimiter().limit(ip);
        if (!counted.success) throw authFailuresExceeded(counted);
        throw new ApiError("unauthorized", "Invalid API key: it is unknown or has been revoked");
      }

      const verdict = await apiLimiter().limit(`key:${verified.keyId}`);
      limitHeaders = rateLimitHeaders(verdict);
      if (!verdict.success) {
        throw new ApiError(
          "rate_limit_exceeded",
          `Rate limit exceeded: ${verdict.limit} requests per minute per API key. Retry after ${limitHeaders["Retry-After"]} s.`,
        );
      }
      const scope = requiredScope(req.method, new URL(req.url).pathname);
      if (!allows(verified.scopes, scope)) throw insufficientScope(scope);
      if (opts.requiredPlan === "enterprise" && verified.account.plan !== "enterprise") {
        throw planRequired();
      }
      const params = await context.params;
      // An error becomes its response here, so that an Idempotency-Key keeps a 4xx like any other answer.
      const run = (r: R) =>
        handler({ req: r, ctx: { account: verified.account, db, actor: { type: "apiKey", id: verified.keyId, name: verified.name }, clientAddress: ip }, params, keyId: verified.keyId }).catch((err: unknown) => toErrorResponse(err, r));
      // A POST with an Idempotency-Key runs once per key and account; its repeats replay the first response.
      const key = req.method === "POST" ? idempotencyKeyOf(req) : null;
      const res = key === null ? await run(req) : await withIdempotencyKey(db, verified.account.id, key, req, run);
      for (const [k, v] of Object.entries(limitHeaders)) res.headers.set(k, v);
      return res;
    } catch (err) {
      const res = toErrorResponse(err, req);
      for (const [k, v] of Object.entries(limitHeaders)) res.headers.set(k, v);
      return res;
    }
  };
}

function authFailuresExceeded(verdict: RateLimitResult): ApiError {
  const headers = rateLimitHeaders(verdict);
  return new ApiError(
    "rate_limit_exceeded",
    `Too many requests with an invalid API key from this address: at most ${verdict.limit} a minute. Retry after ${headers["Retry-After"]} s.`,
    { "Retry-After": headers["Retry-After"]! },
  );
}

export const planRequired = () =>
  new ApiError("plan_required", "Webhooks require the enterprise plan. Upgrade the account to use this feature.");

/**
 * A route's exports: the given handlers, a JSON 405 (with Allow) for every other method, so a wrong method never
 * gets Next.js's empty default, and OPTIONS: 204 with that same Allow (Next.js's own would list every export).
 */
export function route(handlers: Partial<Record<Method, RouteHandler>>): Record<Method | "OPTIONS", RouteHandler> {
  const allow = [...Object.keys(handlers), ...(handlers.GET ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: RouteHandler = async (req) =>
    errorResponse("method_not_allowed", `Method ${req.method} is not allowed here. Allowed: ${allow}`, 405, { Allow: allow });
  const options: RouteHandler = async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } });
  return { ...(Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, RouteHandler>), OPTIONS: options };
}

/** Unknown paths under /api/v1. */
export const notFoundRoute: RouteHandler = async (req) =>
  errorResponse("not_found", `No such endpoint: ${req.method} ${new URL(req.url).pathname}`, 404);
