import { randomUUID } from "node:crypto";
import net from "node:net";
import IORedis from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CIRCUIT_OPEN_MS, createLimiter, createSharedLimiter, STORE_TIMEOUT_MS } from "./index";
import { log } from "@/lib/log/logger";

// The machine's Redis; CI runs the tests that use a service (vitest.config.ts's unit-db project) again with
// REDIS_URL set.
const REDIS_URL = process.env.REDIS_URL;
const W = 60_000;

/** A batch that straddled a window boundary would see the previous window weighted just under 1 (one extra pass). */
async function awayFromWindowEdge(windowMs: number, marginMs: number) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 10));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A TCP proxy in front of the real Redis, so a test can take the store away (refuse connections), make it hang
 * (hold the bytes, as a stalled network does) and bring it back on the same address.
 */
class RedisProxy {
  private server: net.Server | undefined;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private held: Array<() => void> = [];
  private frozen = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      const pair = { client, upstream };
      this.pairs.add(pair);
      client.on("data", (d) => (this.frozen ? this.held.push(() => upstream.write(d)) : upstream.write(d)));
      upstream.on("data", (d) => client.write(d));
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on("close", drop).on("error", drop);
      upstream.on("close", drop).on("error", drop);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and cuts every open connection: new connections are refused. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Holds what clients send (the connection stays open, nothing answers) until thaw(). */
  freeze() {
    this.frozen = true;
  }

  thaw() {
    this.frozen = false;
    for (const send of this.held.splice(0)) send();
  }
}

describe.skipIf(!REDIS_URL)("rate limiting on the real Redis (ioredis adapter + @upstash/ratelimit)", () => {
  let redis: IORedis;
  const target = REDIS_URL ? new URL(REDIS_URL) : new URL("redis://127.0.0.1:6379");

  /** What the shared store has counted for an identifier, over all its windows. */
  async function storedCount(name: string, identifier: string): Promise<number> {
    const keys = await redis.keys(`fenceline:rl:${name}:${identifier}:*`);
    const values = keys.length ? await redis.mget(...keys) : [];
    return values.reduce((sum, v) => sum + Number(v ?? 0), 0);
  }

  beforeAll(() => {
    redis = new IORedis(REDIS_URL!);
  });
  afterAll(async () => {
    await redis.quit();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([1, 2, 3])("of 150 concurrent calls on a fresh identifier exactly 100 pass (round %i)", async () => {
    const limiter = await createSharedLimiter({ backend: "redis", url: REDIS_URL! }, "unit-exact", 100, 60);
    try {
      const id = `exact-${randomUUID()}`;
      await awayFromWindowEdge(W, 2_000);
      const results = await Promise.all(Array.from({ length: 150 }, () => limiter.limit(id)));
      const passed = results.filter((r) => r.success);
      expect(passed.length).toBe(100);
      expect(passed.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
      for (const r of results) expect(r.limit).toBe(100);
      for (const r of results.filter((r) => !r.success)) expect(r.remaining).toBe(0);
      expect(new Set(results.map((r) => r.reset))).toEqual(new Set([(Math.floor(Date.now() / W) + 1) * W]));
      expect(await storedCount("unit-exact", id)).toBe(100); // refusals are not counted
    } finally {
      await limiter.close?.();
    }
  });

  it("peek tells the verdict from Redis without counting a request", async () => {
    const limiter = await createSharedLimiter({ backend: "redis", url: REDIS_URL! }, "unit-peek", 3, 60);
    try {
      const id = `peek-${randomUUID()}`;
      await awayFromWindowEdge(W, 2_000);
      expect(await limiter.peek(id)).toMatchObject({ success: true, remaining: 3 });
      for (let i = 0; i < 3; i++) await limiter.limit(id);
      expect(await limiter.peek(id)).toMatchObject({ success: false, remaining: 0 });
      expect(await limiter.peek(id)).toMatchObject({ success: false, remaining: 0 });
      expect(await storedCount("unit-peek", id)).toBe(3);
    } finally {
      await limiter.close?.();
    }
  });

  it("the app's limiter counts in Redis from its very first call (no fallback while still connecting)", async () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const limiter = createLimiter({ backend: "redis", url: REDIS_URL! }, "unit-first", 100, 60);
    try {
      const id = `first-${randomUUID()}`;
      expect(await limiter.limit(id)).toMatchObject({ success: true, remaining: 99 });
      expect(await storedCount("unit-first", id)).toBe(1);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      await limiter.close?.();
    }
  });

  it("falls back while Redis is down and goes back to it after the circuit period once it returns", async () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const proxy = new RedisProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.up();
    const limiter = createLimiter({ backend: "redis", url: proxy.url }, "unit-outage", 100, 60);
    const id = `outage-${randomUUID()}`;
    try {
      await limiter.limit(id);
      expect(await storedCount("unit-outage", id)).toBe(1);

      await proxy.down();
      const failedAt = Date.now();
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        expect(await limiter.limit(id)).toMatchObject({ success: true, limit: 100 });
        expect(performance.now() - start).toBeLessThan(STORE_TIMEOUT_MS);
      }
      expect(warn).toHaveBeenCalledTimes(1);

      await proxy.up(); // same address
      expect((await limiter.limit(id)).success).toBe(true);
      expect(await storedCount("unit-outage", id)).toBe(1); // circuit still open: the fallback answered

      let backAt = 0;
      while (!backAt && Date.now() - failedAt < CIRCUIT_OPEN_MS + 5_000) {
        await limiter.limit(id);
        if ((await storedCount("unit-outage", id)) > 1) backAt = Date.now();
        else await sleep(100);
      }
      expect(backAt, "the shared store was used again").toBeGreaterThan(0);
      expect(backAt - failedAt).toBeGreaterThanOrEqual(CIRCUIT_OPEN_MS);
      expect(backAt - failedAt).toBeLessThan(CIRCUIT_OPEN_MS + 1_500);
      expect(await storedCount("unit-outage", id)).toBe(2);
    } finally {
      await limiter.close?.();
      await proxy.down();
    }
  });

  it("a Redis that stops answering costs one call STORE_TIMEOUT_MS, answered by the fallback", async () => {
    vi.spyOn(log, "warn").mockImplementation(() => {});
    const proxy = new RedisProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.up();
    const limiter = createLimiter({ backend: "redis", url: proxy.url }, "unit-hang", 100, 60, { circuitOpenMs: 60_000 });
    const id = `hang-${randomUUID()}`;
    try {
      await awayFromWindowEdge(W, 4_000);
      await limiter.limit(id);
      proxy.freeze();
      let start = performance.now();
      expect(await limiter.limit(id)).toMatchObject({ success: true, limit: 100, remaining: 99 });
      const hung = performance.now() - start;
      expect(hung).toBeGreaterThanOrEqual(STORE_TIMEOUT_MS - 50);
      expect(hung).toBeLessThan(STORE_TIMEOUT_MS + 500);
      // The circuit is open now: the next calls do not wait.
      start = performance.now();
      expect(await limiter.limit(id)).toMatchObject({ success: true, remaining: 98 });
      expect(performance.now() - start).toBeLessThan(250);
    } finally {
      proxy.thaw();
      await limiter.close?.();
      await proxy.down();
    }
  });
});
