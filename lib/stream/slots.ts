import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { env } from "@/lib/config/env";
import { log } from "@/lib/log/logger";
import { CIRCUIT_OPEN_MS, sharedRedis, STORE_TIMEOUT_MS, withTimeout } from "@/lib/rate-limit";

// The budget of open streams per owner (an API key, or a dashboard user): a stream takes a place when it opens and
// gives it back when it ends. On a scale-out (REDIS_URL) the places are counted in Redis, so the limit holds across
// every server; otherwise in this process.

/** A place held by one open stream. */
export interface StreamSlot {
  /** Extends the place's lease (each keep-alive tick of the stream). */
  renew(): void;
  /** Gives the place back (the stream ended). */
  give(): void;
}

export interface SlotStore {
  /** A place for a new stream of `owner`, or null when `max` are already held. */
  take(owner: string, max: number): Promise<StreamSlot | null>;
}

/** In-process places. take() checks and takes in one synchronous step: concurrent opens cannot both get the last. */
export class MemorySlots implements SlotStore {
  private readonly held = new Map<string, Set<string>>();

  async take(owner: string, max: number): Promise<StreamSlot | null> {
    return this.takeNow(owner, max);
  }

  takeNow(owner: string, max: number): StreamSlot | null {
    const ids = this.held.get(owner) ?? new Set<string>();
    if (ids.size >= max) return null;
    const id = randomUUID();
    ids.add(id);
    this.held.set(owner, ids);
    return {
      renew: () => {},
      give: () => {
        ids.delete(id);
        if (ids.size === 0 && this.held.get(owner) === ids) this.held.delete(owner);
      },
    };
  }

  /** How many places `owner` holds. */
  count(owner: string): number {
    return this.held.get(owner)?.size ?? 0;
  }
}

// Each owner's places are a sorted set of stream ids scored by the time their lease ends (Redis's own clock, so the
// servers' clocks need not agree). Taking trims the lapsed leases first, then counts: a server that died without
// giving its places back holds them only until their leases end. The key itself expires with its last lease.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const EXPIRE_WITH_LAST = `local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES') if last[2] then redis.call('PEXPIREAT', KEYS[1], last[2]) end`;
/** KEYS[1] the owner's set; ARGV: max, lease (ms), stream id → 1 taken, 0 full. */
const TAKE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
${EXPIRE_WITH_LAST}
return 1`;
/**
 * KEYS[1] the owner's set; ARGV: lease (ms), stream id. Re-adds a place whose lease lapsed (Redis was away for a
 * while): the stream is alive, so it counts again, and new opens wait until the owner is back under the limit.
 */
const RENEW = `${NOW}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
${EXPIRE_WITH_LAST}
return 1`;

/** Places in Redis; every call throws when Redis fails or does not answer within STORE_TIMEOUT_MS. */
export class RedisSlots implements SlotStore {
  constructor(
    private readonly client: Promise<Redis>,
    private readonly prefix: string,
    private readonly leaseMs: number,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  private key(owner: string): string {
    return `${this.prefix}:streams:${owner}`;
  }

  private async run(script: string, owner: string, args: Array<string | number>): Promise<unknown> {
    const client = await this.client;
    return withTimeout(client.eval(script, 1, this.key(owner), ...args), STORE_TIMEOUT_MS);
  }

  async take(owner: string, max: number): Promise<StreamSlot | null> {
    const id = randomUUID();
    if (Number(await this.run(TAKE, owner, [max, this.leaseMs, id])) !== 1) return null;
    return {
      renew: () => void this.run(RENEW, owner, [this.leaseMs, id]).catch(this.onError),
      give: () => void this.client.then((c) => withTimeout(c.zrem(this.key(owner), id), STORE_TIMEOUT_MS)).catch(this.onError),
    };
  }

  /** How many places `owner` holds, lapsed leases included (for tests and diagnostics). */
  async count(owner: string): Promise<number> {
    return (await this.client).zcard(this.key(owner));
  }
}

/**
 * Places in Redis, and when Redis is unreachable, in this process instead (as the rate limiter does): a stream is not
 * refused because the counter's store is away, and the limit then holds per server until Redis answers again (tried
 * again CIRCUIT_OPEN_MS after a failure). A place is given back to the store that granted it.
 */
export class ResilientSlots implements SlotStore {
  private openUntil = 0;
  private lastWarning = 0;

  constructor(
    private readonly primary: SlotStore,
    private readonly fallback: MemorySlots,
    private readonly circuitOpenMs = CIRCUIT_OPEN_MS,
  ) {}

  async take(owner: string, max: number): Promise<StreamSlot | null> {
    if (Date.now() >= this.openUntil) {
      try {
        return await this.primary.take(owner, max);
      } catch (err) {
        this.openUntil = Date.now() + this.circuitOpenMs;
        if (Date.now() - this.lastWarning > 60_000) {
          this.lastWarning = Date.now();
          log.warn("[stream] the stream counter's Redis is unavailable: counting open streams on this server alone:", String(err));
        }
      }
    }
    return this.fallback.takeNow(owner, max);
  }
}

/** A stream's lease: three keep-alive intervals, so one late tick does not lose the place. */
export const leaseMs = (keepaliveMs = env().STREAM_KEEPALIVE_MS): number => 3 * keepaliveMs;

const shared = globalThis as unknown as { __fencelineStreamSlots?: { url: string | undefined; store: SlotStore } };

/** The process's store of places: in Redis when REDIS_URL is set (with the in-process fallback), else in-process. */
export function streamSlots(): SlotStore {
  const url = env().REDIS_URL;
  const current = shared.__fencelineStreamSlots;
  if (current && current.url === url) return current.store;
  const memory = new MemorySlots();
  const store = url ? new ResilientSlots(new RedisSlots(sharedRedis(url), env().RATE_LIMIT_KEY_PREFIX, leaseMs()), memory) : memory;
  shared.__fencelineStreamSlots = { url, store };
  return store;
}
