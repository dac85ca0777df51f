import { randomUUID } from "node:crypto";
import net from "node:net";
import fc from "fast-check";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log/logger";
import { connectRedis } from "@/lib/rate-limit";
import { MemorySlots, RedisSlots, ResilientSlots, type SlotStore, type StreamSlot } from "./slots";

// The machine's Redis; CI runs the tests that use a service (vitest.config.ts's unit-db project) again with
// REDIS_URL set.
const REDIS_URL = process.env.REDIS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Steps of a run: open a stream of one of two owners, or close the i-th stream still open. */
const step = fc.oneof(fc.record({ open: fc.constantFrom("a", "b") }), fc.record({ close: fc.nat() }));

/**
 * Runs the steps against a store and a model (per owner, how many are open): every open succeeds exactly when the
 * owner holds fewer than `max`, so the count never passes it and a closed stream's place is free at once.
 */
async function agreesWithModel(store: SlotStore, max: number, steps: Array<{ open: string } | { close: number }>, count: (owner: string) => Promise<number> | number) {
  const run = randomUUID();
  const open: Array<{ owner: string; slot: StreamSlot }> = [];
  const model = new Map<string, number>();
  for (const s of steps) {
    if ("open" in s) {
      const owner = `${run}:${s.open}`;
      const slot = await store.take(owner, max);
      const held = model.get(owner) ?? 0;
      expect(slot !== null).toBe(held < max);
      if (slot) {
        open.push({ owner, slot });
        model.set(owner, held + 1);
      }
    } else if (open.length > 0) {
      const [closed] = open.splice(s.close % open.length, 1);
      closed!.slot.give();
      model.set(closed!.owner, model.get(closed!.owner)! - 1);
    }
    // give() on Redis is sent without waiting; the next call on the same connection is answered after it.
    for (const owner of ["a", "b"]) expect(await count(`${run}:${owner}`)).toBe(model.get(`${run}:${owner}`) ?? 0);
  }
  for (const o of open) o.slot.give();
}

describe("MemorySlots", () => {
  it("holds at most max places per owner, and a given-back place is free again (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 40 }), async (max, steps) => {
        const store = new MemorySlots();
        await agreesWithModel(store, max, steps, (owner) => store.count(owner));
      }),
    );
  });

  it("of concurrent opens only max get a place", async () => {
    const store = new MemorySlots();
    const got = await Promise.all(Array.from({ length: 25 }, () => store.take("k", 10)));
    expect(got.filter(Boolean)).toHaveLength(10);
  });
});

describe.skipIf(!REDIS_URL)("RedisSlots on the real Redis", () => {
  let client: Promise<Redis>;
  const prefix = `fenceline-test-${randomUUID()}`;
  beforeAll(() => {
    client = connectRedis(REDIS_URL!);
  });
  afterAll(async () => {
    const c = await client;
    const keys = await c.keys(`${prefix}:*`);
    if (keys.length) await c.del(...keys);
    c.disconnect();
  });

  it("holds at most max places per owner, and a given-back place is free again (property)", async () => {
    const store = new RedisSlots(client, prefix, 60_000);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 25 }), async (max, steps) => {
        await agreesWithModel(store, max, steps, (owner) => store.count(owner));
      }),
      { numRuns: 30 },
    );
  });

  it("of 40 concurrent opens through two clients (two servers) exactly 10 get a place", async () => {
    const other = connectRedis(REDIS_URL!);
    try {
      const stores = [new RedisSlots(client, prefix, 60_000), new RedisSlots(other, prefix, 60_000)];
      const owner = randomUUID();
      const got = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!.take(owner, 10)));
      expect(got.filter(Boolean)).toHaveLength(10);
      expect(await stores[0]!.count(owner)).toBe(10);
    } finally {
      (await other).disconnect();
    }
  });

  it("a place whose lease is not renewed (its server died) lapses; renewed places are kept", async () => {
    const store = new RedisSlots(client, prefix, 400);
    const dead = randomUUID();
    const alive = randomUUID();
    expect(await store.take(dead, 1)).not.toBeNull();
    const kept = (await store.take(alive, 1))!;
    expect(await store.take(dead, 1)).toBeNull();
    const renewing = setInterval(() => kept.renew(), 100);
    try {
      await sleep(700);
      expect(await store.take(dead, 1), "the dead server's place lapsed").not.toBeNull();
      expect(await store.take(alive, 1), "the renewed place is still held").toBeNull();
    } finally {
      clearInterval(renewing);
    }
    // The key goes with its last lease: nothing is left behind in Redis.
    await sleep(600);
    expect(await (await client).exists(`${prefix}:streams:${dead}`, `${prefix}:streams:${alive}`)).toBe(0);
  });
});

describe("ResilientSlots", () => {
  it("with Redis unreachable, counts places in this process (max per server) and gives them back there", async () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    // A port that refuses connections: a closed listener's.
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const down = connectRedis(`redis://127.0.0.1:${port}`);
    try {
      const memory = new MemorySlots();
      const store = new ResilientSlots(new RedisSlots(down, "unreachable", 60_000), memory);
      const first = await store.take("k", 2);
      expect(first).not.toBeNull();
      expect(await store.take("k", 2)).not.toBeNull();
      expect(await store.take("k", 2)).toBeNull();
      expect(memory.count("k")).toBe(2);
      first!.give();
      expect(memory.count("k")).toBe(1);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("unavailable"), expect.any(String));
    } finally {
      (await down).disconnect();
      warn.mockRestore();
    }
  });
});
