import { env } from "@/lib/config/env";
import { MemorySlidingWindow } from "./memory";
import type { Limiter, RateLimitResult } from "./types";

export type { Limiter, RateLimitResult } from "./types";

export type Backend = "upstash" | "redis" | "memory";

export function rateLimitBackend(): Backend {
  const e = env();
  if (e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN) return "upstash";
  if (e.REDIS_URL) return "redis";
  return "memory";
}

// How long the limiter keeps to the in-process fallback after the shared store failed, before trying it again.
const CIRCUIT_OPEN_MS = 5_000;
// Over this, a call to the shared store counts as failed (the Upstash client's own time-out would let it pass).
const STORE_TIMEOUT_MS = 1_000;

/**
 * When the shared store (Redis/Upstash) is unreachable, requests are not refused: each app server falls back to its
 * own in-process limiter (so the limit still holds per server) and tries the store again after a few seconds.
 * Availability of the API matters more than an exact global count during an outage of the limiter's store.
 */
class ResilientLimiter implements Limiter {
  private openUntil = 0;
  private lastWarning = 0;

  constructor(
    private readonly name: string,
    private readonly primary: Promise<Limiter>,
    private readonly fallback: MemorySlidingWindow,
  ) {}

  async limit(identifier: string): Promise<RateLimitResult> {
    if (Date.now() < this.openUntil) return this.fallback.limit(identifier);
    try {
      return await (await this.primary).limit(identifier);
    } catch (err) {
      this.openUntil = Date.now() + CIRCUIT_OPEN_MS;
      if (Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        console.warn(`[rate-limit] ${this.name}: shared store unavailable, using the in-process limiter:`, String(err));
      }
      return this.fallback.limit(identifier);
    }
  }
}

async function sharedLimiter(backend: Exclude<Backend, "memory">, name: string, max: number, windowS: number): Promise<Limiter> {
  const { Ratelimit } = await import("@upstash/ratelimit");
  const e = env();
  let redis: ConstructorParameters<typeof Ratelimit>[0]["redis"];
  if (backend === "upstash") {
    const { Redis } = await import("@upstash/redis");
    redis = new Redis({ url: e.UPSTASH_REDIS_REST_URL!, token: e.UPSTASH_REDIS_REST_TOKEN! });
  } else {
    const { default: IORedis } = await import("ioredis");
    const { IORedisAdapter } = await import("./ioredis-adapter");
    // No offline queue: while Redis is down, commands fail at once instead of piling up.
    const client = new IORedis(e.REDIS_URL!, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    client.on("error", () => {}); // reported by ResilientLimiter when a call fails
    // The adapter implements the two script calls the single-region limiters make (see ioredis-adapter.ts).
    redis = new IORedisAdapter(client) as unknown as typeof redis;
  }
  const limiter = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(max, `${windowS} s`),
    prefix: `fenceline:rl:${name}`,
    timeout: STORE_TIMEOUT_MS,
    analytics: false,
  });
  return {
    async limit(identifier) {
      const r = await limiter.limit(identifier);
      if (r.reason === "timeout") throw new Error(`rate-limit store timed out after ${STORE_TIMEOUT_MS} ms`);
      return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
    },
  };
}

const globalForLimiters = globalThis as unknown as { __fencelineLimiters?: Map<string, Limiter> };

/** A named limiter (built once per process and configuration): `max` requests per rolling `windowS` seconds. */
export function getLimiter(name: string, max: number, windowS = 60): Limiter {
  const limiters = (globalForLimiters.__fencelineLimiters ??= new Map());
  const backend = rateLimitBackend();
  const key = `${name}:${max}:${windowS}:${backend}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    const memory = new MemorySlidingWindow(max, windowS * 1000);
    limiter = backend === "memory" ? memory : new ResilientLimiter(name, sharedLimiter(backend, name, max, windowS), memory);
    limiters.set(key, limiter);
  }
  return limiter;
}

/** The per-API-key limiter of /api/v1 (RATE_LIMIT_PER_MINUTE). */
export const apiLimiter = () => getLimiter("api", env().RATE_LIMIT_PER_MINUTE, 60);

/** Headers that report a limiter's verdict; Retry-After only when refused. */
export function rateLimitHeaders(r: RateLimitResult, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(Math.max(0, r.remaining)),
    "X-RateLimit-Reset": String(Math.ceil(r.reset / 1000)),
  };
  if (!r.success) headers["Retry-After"] = String(Math.max(1, Math.ceil((r.reset - now) / 1000)));
  return headers;
}
