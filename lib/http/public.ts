import { env } from "@/lib/config/env";
import { getDb, type Db } from "@/lib/db/client";
import { rateLimitHeaders, type Limiter } from "@/lib/rate-limit";
import { ApiError } from "./errors";
import { toErrorResponse, type RouteHandler } from "./handler";

type Params = Record<string, string | string[] | undefined>;

/** Headers on every public response, errors included: never cached, never indexed. */
export const PUBLIC_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } as const;

/**
 * The client's address, for per-IP limits. With TRUST_PROXY=true the first X-Forwarded-For entry (the proxy in
 * front must set the header, not append to what the client sent). Without it, the last entry: `next start` puts the
 * socket's address there when the client sent no such header (one that did can choose its own key; see README).
 */
export function clientIp(req: Request, trustProxy = env().TRUST_PROXY): string {
  const entries = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return (trustProxy ? entries[0] : entries[entries.length - 1]) ?? "unknown";
}

export interface PublicLimit {
  limiter: Limiter;
  /** The identifier counted, e.g. `ip:203.0.113.9`. */
  key: string;
  /** What the limit is per, for the 429 message ("per link"). */
  per: string;
}

/**
 * The wrapper of unauthenticated endpoints (outside /api/v1): each of the given limits in turn (429 with Retry-After
 * on the first one exceeded, and later limits are not charged), the handler, and every error as the JSON envelope;
 * every response carries PUBLIC_HEADERS.
 */
export function withPublicAccess(
  handler: (args: { req: Request; db: Db; params: Params }) => Promise<Response>,
  limits: (args: { req: Request; params: Params }) => PublicLimit[],
): RouteHandler {
  return async (req, context) => {
    let res: Response;
    try {
      const params = await context.params;
      for (const { limiter, key, per } of limits({ req, params })) {
        const verdict = await limiter.limit(key);
        if (!verdict.success) {
          const headers = rateLimitHeaders(verdict);
          throw new ApiError(
            "rate_limit_exceeded",
            `Rate limit exceeded: ${verdict.limit} requests per minute ${per}. Retry after ${headers["Retry-After"]} s.`,
            headers,
          );
        }
      }
      res = await handler({ req, db: await getDb(), params });
    } catch (err) {
      res = toErrorResponse(err, req);
    }
    for (const [k, v] of Object.entries(PUBLIC_HEADERS)) res.headers.set(k, v);
    return res;
  };
}
