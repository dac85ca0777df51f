import { getDb, type Db } from "@/lib/db/client";
import { rateLimitHeaders, type Limiter } from "@/lib/rate-limit";
import { ApiError } from "./errors";
import { toErrorResponse, type RouteHandler } from "./handler";

type Params = Record<string, string | string[] | undefined>;

/** Headers on every public response, errors included: never cached, never indexed. */
export const PUBLIC_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } as const;

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
