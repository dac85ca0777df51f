import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CIRCUIT_OPEN_MS, createLimiter, ResilientLimiter, STORE_TIMEOUT_MS } from "./index";
import { MemorySlidingWindow } from "./memory";
import type { Limiter, RateLimitResult } from "./types";
import { log } from "@/lib/log/logger";

/** A stand-in for the shared store whose availability the test switches; its verdicts are recognisable (limit 7). */
class SwitchableStore implements Limiter {
  up = false;
  calls = 0;
  async limit(): Promise<RateLimitResult> {
    this.calls++;
    if (!this.up) throw new Error("ECONNREFUSED");
    return { success: true, limit: 7, remaining: 6, reset: 0 };
  }
  async peek(): Promise<RateLimitResult> {
    return this.limit();
  }
}

/** Keeps a test's calls inside one fixed window, so a rollover cannot change the counts it expects. */
async function awayFromWindowEdge(windowMs: number, marginMs: number) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 10));
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("ResilientLimiter circuit", () => {
  function setup(opts?: { circuitOpenMs?: number }) {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const store = new SwitchableStore();
    const limiter = new ResilientLimiter("test", Promise.resolve(store), new MemorySlidingWindow(100, 60_000), opts);
    return { store, limiter, warn };
  }

  it("answers from the in-process limiter while the store fails, and retries the store after the circuit period", async () => {
    const { store, limiter, warn } = setup({ circuitOpenMs: 2_000 });
    expect(await limiter.limit("id")).toMatchObject({ success: true, limit: 100, remaining: 99 });
    expect(store.calls).toBe(1);

    store.up = true;
    vi.setSystemTime(1_000_000 + 1_999);
    expect(await limiter.limit("id")).toMatchObject({ limit: 100, remaining: 98 });
    expect(store.calls).toBe(1); // not asked while the circuit is open

    vi.setSystemTime(1_000_000 + 2_000);
    expect(await limiter.limit("id")).toMatchObject({ limit: 7 });
    expect(await limiter.limit("id")).toMatchObject({ limit: 7 });
    expect(store.calls).toBe(3);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("opens for CIRCUIT_OPEN_MS (5 s) by default, and warns at most once a minute", async () => {
    expect(CIRCUIT_OPEN_MS).toBe(5_000);
    const { store, limiter, warn } = setup();
    await limiter.limit("id");
    vi.setSystemTime(1_000_000 + 4_999);
    await limiter.limit("id");
    expect(store.calls).toBe(1);
    vi.setSystemTime(1_000_000 + 5_000);
    await limiter.limit("id"); // retried, failed again: the circuit reopens
    expect(store.calls).toBe(2);
    vi.setSystemTime(1_000_000 + 9_999);
    await limiter.limit("id");
    expect(store.calls).toBe(2);
    vi.setSystemTime(1_000_000 + 10_000);
    await limiter.limit("id");
    expect(store.calls).toBe(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain("in-process limiter");
  });
});

describe("Redis unreachable (closed port)", () => {
  beforeAll(async () => {
    // Load the client libraries first so the timings below measure calls, not module loading.
    await import("@upstash/ratelimit");
    await import("ioredis");
  });

  it("each call resolves quickly with the fallback's verdict, and the limit still holds", async () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const limiter = createLimiter({ backend: "redis", url: "redis://127.0.0.1:1" }, "unreachable", 100, 60);
    try {
      const timed = async () => {
        const start = performance.now();
        const verdict = await limiter.limit("id");
        return { verdict, ms: performance.now() - start };
      };
      await awayFromWindowEdge(60_000, 2_000);
      const burst = await Promise.all(Array.from({ length: 100 }, timed));
      expect(burst.every((r) => r.verdict.success)).toBe(true);
      expect(burst.map((r) => r.verdict.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));

      const after = [];
      for (let i = 0; i < 5; i++) after.push(await timed());
      expect(after.map((r) => r.verdict.success)).toEqual([false, false, false, false, false]);
      expect(after[0]?.verdict).toMatchObject({ limit: 100, remaining: 0 });

      // Far under the store time-out: a refused connection fails at once, nothing waits for STORE_TIMEOUT_MS.
      const slowest = Math.max(...[...burst, ...after].map((r) => r.ms));
      expect(slowest).toBeLessThan(STORE_TIMEOUT_MS / 2);
      expect(warn).toHaveBeenCalledTimes(1); // the store really was tried and failed
    } finally {
      await limiter.close?.();
    }
  });
});
