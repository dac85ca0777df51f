import type { Redis as IORedisClient } from "ioredis";
import { env, type Env } from "@/lib/config/env";
import { MemorySlidingWindow } from "./memory";
import type { Limiter, RateLimitResult } from "./types";
import { log } from "@/lib/log/logger";

export type { Limiter, RateLimitResult } from "./types";

/** Where the shared counters live: Upstash over REST, a plain Redis server, or nowhere (each process counts alone). */
export type Store =
  | { backend: "upstash"; url: string; token: string }
  | { backend: "redis"; url: string }
  | { backend: "memory" };

export type Backend = Store["backend"];
export type SharedStore = Exclude<Store, { backend: "memory" }>;

/** The store the configuration names: Upstash when both its variables are set, else REDIS_URL, else in-process. */
export function storeFromEnv(e: Env = env()): Store {
  if (e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN) {
    return { backend: "upstash", url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN };
  }
  if (e.REDIS_URL) return { backend: "redis", url: e.REDIS_URL };
  return { backend: "memory" };
}

export function rateLimitBackend(): Backend {
  return storeFromEnv().backend;
}

/** How long the limiter keeps to the in-process fallback after the shared store failed, before trying it again. */
export const CIRCUIT_OPEN_MS = 5_000;
/** Over this, a call to the shared store counts as failed (the Upstash client's own time-out would let it pass). */
export const STORE_TIMEOUT_MS = 1_000;

/**
 * When the shared store (Redis/Upstash) is unreachable, requests are not refused: each app server falls back to its
 * own in-process limiter (so the limit still holds per server) and tries the store again after a few seconds.
 * Availability of the API matters more than an exact global count during an outage of the limiter's store.
 */
export class ResilientLimiter implements Limiter {
  private openUntil = 0;
  private lastWarning = 0;
  private readonly circuitOpenMs: number;

  constructor(
    private readonly name: string,
    private readonly primary: Promise<Limiter>,
    private readonly fallback: Limiter,
    opts: { circuitOpenMs?: number } = {},
  ) {
    this.circuitOpenMs = opts.circuitOpenMs ?? CIRCUIT_OPEN_MS;
  }

  limit(identifier: string): Promise<RateLimitResult> {
    return this.call((l) => l.limit(identifier));
  }

  peek(identifier: string): Promise<RateLimitResult> {
    return this.call((l) => l.peek(identifier));
  }

  private async call(op: (limiter: Limiter) => Promise<RateLimitResult>): Promise<RateLimitResult> {
    if (Date.now() < this.openUntil) return op(this.fallback);
    try {
      return await op(await this.primary);
    } catch (err) {
      this.openUntil = Date.now() + this.circuitOpenMs;
      if (Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        log.warn(`[rate-limit] ${this.name}: shared store unavailable, using the in-process limiter:`, String(err));
      }
      return op(this.fallback);
    }
  }

  async close(): Promise<void> {
    await (await this.primary).close?.();
  }
}

/** Resolves when the client is ready, has failed to connect once, or after `ms`, whichever comes first. */
function firstConnection(client: IORedisClient, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      client.off("error", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once("ready", done);
    client.once("error", done);
  });
}

/**
 * A client of a plain Redis server, connected (or failed to connect once). Without an offline queue, commands fail at
 * once while Redis is down instead of piling up; the caller decides what to do then (its errors are reported there).
 */
export async function connectRedis(url: string): Promise<IORedisClient> {
  const { default: IORedis } = await import("ioredis");
  const client = new IORedis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
  client.on("error", () => {});
  // A command sent while still connecting would fail, so the first call would count as an outage.
  await firstConnection(client, STORE_TIMEOUT_MS);
  return client;
}

const globalForRedis = globalThis as unknown as { __fencelineRedis?: Map<string, Promise<IORedisClient>> };

/** The process's one client of the Redis at `url`, for the shared counters that are not rate limits (open streams). */
export function sharedRedis(url: string): Promise<IORedisClient> {
  const clients = (globalForRedis.__fencelineRedis ??= new Map());
  let client = clients.get(url);
  if (!client) {
    client = connectRedis(url);
    clients.set(url, client);
  }
  return client;
}

/** `p`, or a rejection once `ms` have passed (a stalled store must not hold a request). */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the shared store timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A limiter over the shared store, `max` requests per rolling `windowS` seconds; it throws when the store fails. */
export async function createSharedLimiter(store: SharedStore, name: string, max: number, windowS: number): Promise<Limiter> {
  const { Ratelimit } = await import("@upstash/ratelimit");
  let redis: ConstructorParameters<typeof Ratelimit>[0]["redis"];
  let close = async () => {};
  if (store.backend === "upstash") {
    const { Redis } = await import("@upstash/redis");
    redis = new Redis({ url: store.url, token: store.token });
  } else {
    const { IORedisAdapter } = await import("./ioredis-adapter");
    const client = await connectRedis(store.url);
    close = async () => client.disconnect();
    // The adapter implements the two script calls the single-region limiters make (see ioredis-adapter.ts).
    redis = new IORedisAdapter(client) as unknown as typeof redis;
  }
  const limiter = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(max, `${windowS} s`),
    prefix: `${env().RATE_LIMIT_KEY_PREFIX}:${name}`,
    timeout: STORE_TIMEOUT_MS,
    analytics: false,
  });
  return {
    async limit(identifier) {
      const r = await limiter.limit(identifier);
      if (r.reason === "timeout") throw new Error(`rate-limit store timed out after ${STORE_TIMEOUT_MS} ms`);
      return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
    },
    async peek(identifier) {
      const r = await withTimeout(limiter.getRemaining(identifier), STORE_TIMEOUT_MS);
      return { success: r.remaining > 0, limit: r.limit, remaining: r.remaining, reset: r.reset };
    },
    close,
  };
}

/** The limiter the app uses for a store: the shared one with the in-process fallback, or only the in-process one. */
export function createLimiter(
  store: Store,
  name: string,
  max: number,
  windowS: number,
  opts: { circuitOpenMs?: number } = {},
): Limiter {
  const memory = new MemorySlidingWindow(max, windowS * 1000);
  if (store.backend === "memory") return memory;
  return new ResilientLimiter(name, createSharedLimiter(store, name, max, windowS), memory, opts);
}

const globalForLimiters = globalThis as unknown as { __fencelineLimiters?: Map<string, Limiter> };

/** A named limiter (built once per process and configuration): `max` requests per rolling `windowS` seconds. */
export function getLimiter(name: string, max: number, windowS = 60): Limiter {
  const limiters = (globalForLimiters.__fencelineLimiters ??= new Map());
  const store = storeFromEnv();
  const key = `${name}:${max}:${windowS}:${store.backend}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = createLimiter(store, name, max, windowS);
    limiters.set(key, limiter);
  }
  return limiter;
}

/** The per-API-key limiter of /api/v1 (RATE_LIMIT_PER_MINUTE). */
export const apiLimiter = () => getLimiter("api", env().RATE_LIMIT_PER_MINUTE, 60);

/** Failed API-key authentications per client address (AUTH_FAILURE_LIMIT_PER_IP a minute). */
export const authFailureLimiter = () => getLimiter("auth-failures-ip", env().AUTH_FAILURE_LIMIT_PER_IP, 60);

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
