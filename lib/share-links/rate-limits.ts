import { env } from "@/lib/config/env";
import { clientIp } from "@/lib/http/client-ip";
import type { PublicLimit } from "@/lib/http/public";
import { getLimiter } from "@/lib/rate-limit";
import { hashShareToken } from "./share-links";

// The public share endpoint's limiters (built once per process and configuration, like the API's).
export const shareIpLimiter = () => getLimiter("share-ip", env().SHARE_RATE_LIMIT_PER_IP, 60);
export const shareTokenLimiter = () => getLimiter("share-token", env().SHARE_RATE_LIMIT_PER_TOKEN, 60);

/**
 * Per client address first (so a refused client does not use up a link's budget), then per link. The link is
 * counted by its token's hash, so no token is ever written to the limiter's store; unknown tokens are counted too.
 */
export function publicShareLimits(req: Request, token: string): PublicLimit[] {
  return [
    { limiter: shareIpLimiter(), key: `ip:${clientIp(req.headers)}`, per: "per client address" },
    { limiter: shareTokenLimiter(), key: `token:${hashShareToken(token)}`, per: "per share link" },
  ];
}
