import { describe, expect, it } from "vitest";
import { MemorySlidingWindow } from "./memory";

const W = 60_000;
/** The instant `offsetMs` into fixed window number `window`. */
const at = (window: number, offsetMs = 0) => window * W + offsetMs;

/** Takes `n` slots at one instant; returns how many passed. */
function takeMany(limiter: MemorySlidingWindow, id: string, now: number, n: number): number {
  let passed = 0;
  for (let i = 0; i < n; i++) if (limiter.take(id, now).success) passed++;
  return passed;
}

/** A batch that straddled a window boundary would see the previous window weighted just under 1 (one extra pass). */
async function awayFromWindowEdge(windowMs: number, marginMs: number) {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 10));
}

describe("in-process sliding window", () => {
  it("of 150 concurrent limit() calls on a fresh identifier exactly 100 succeed", async () => {
    const limiter = new MemorySlidingWindow(100, W);
    await awayFromWindowEdge(W, 1_000);
    const results = await Promise.all(Array.from({ length: 150 }, () => limiter.limit("fresh")));
    const passed = results.filter((r) => r.success);
    expect(passed.length).toBe(100);
    expect(passed.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const r of results.filter((r) => !r.success)) expect(r.remaining).toBe(0);
    expect(new Set(results.map((r) => r.reset)).size).toBe(1);
  });

  it("keeps each identifier's budget apart", () => {
    const limiter = new MemorySlidingWindow(100, W);
    const now = at(10, 5_000);
    expect(takeMany(limiter, "a", now, 150)).toBe(100);
    expect(limiter.take("b", now)).toMatchObject({ success: true, remaining: 99 });
    expect(takeMany(limiter, "b", now, 200)).toBe(99);
    expect(limiter.take("a", now).success).toBe(false);
    expect(limiter.take("c", now).success).toBe(true);
  });

  it("reports limit, remaining and the end of the current fixed window as reset", () => {
    const limiter = new MemorySlidingWindow(100, W);
    const now = at(10, 1_000);
    expect(limiter.take("id", now)).toEqual({ success: true, limit: 100, remaining: 99, reset: at(11) });
    for (let i = 98; i >= 0; i--) expect(limiter.take("id", now)).toEqual({ success: true, limit: 100, remaining: i, reset: at(11) });
    expect(limiter.take("id", now)).toEqual({ success: false, limit: 100, remaining: 0, reset: at(11) });
    // The last millisecond of the window still belongs to it.
    expect(limiter.take("id", at(11) - 1)).toEqual({ success: false, limit: 100, remaining: 0, reset: at(11) });
  });

  it("weights the previous window by how much of it the rolling window still covers", () => {
    const limiter = new MemorySlidingWindow(100, W);
    expect(takeMany(limiter, "id", at(10, 30_000), 100)).toBe(100);

    // At the boundary the whole previous window still counts: nothing passes.
    expect(limiter.take("id", at(11))).toMatchObject({ success: false, remaining: 0, reset: at(12) });
    // A quarter in, 75 of the previous 100 still count: 25 pass.
    expect(limiter.take("id", at(11, 15_000))).toMatchObject({ success: true, remaining: 24, reset: at(12) });
    expect(takeMany(limiter, "id", at(11, 15_000), 50)).toBe(24);
    // Halfway, 50 of the previous count plus the 25 taken in this window: 25 more pass.
    expect(takeMany(limiter, "id", at(11, 30_000), 50)).toBe(25);
    // At the last millisecond the previous window weighs floor(100 / 60000) = 0: the other 50 pass.
    expect(takeMany(limiter, "id", at(11, W - 1), 80)).toBe(50);
    // The next window starts with those 100 as its previous one, and 1% in, 99 of them still count.
    expect(limiter.take("id", at(12)).success).toBe(false);
    expect(limiter.take("id", at(12, 600))).toMatchObject({ success: true, remaining: 0 });
    expect(limiter.take("id", at(12, 600)).success).toBe(false);
  });

  it("rounds the previous window's weighted count down, and refusals never count", () => {
    const limiter = new MemorySlidingWindow(3, W);
    expect(takeMany(limiter, "id", at(10), 10)).toBe(3);
    // floor(3 × 0.5) = 1 counts from the previous window: 2 pass (the 7 refusals above did not add to it).
    expect(takeMany(limiter, "id", at(11, 30_000), 10)).toBe(2);
  });

  it("forgets a window once a whole window has passed without requests", () => {
    const limiter = new MemorySlidingWindow(100, W);
    expect(takeMany(limiter, "id", at(10, 59_000), 100)).toBe(100);
    // Window 11 is empty, so at the start of window 12 nothing counts any more.
    expect(limiter.take("id", at(12))).toMatchObject({ success: true, remaining: 99, reset: at(13) });
  });

  it("sweeps identifiers idle for two windows, and keeps those still needed as the previous window", () => {
    const limiter = new MemorySlidingWindow(100, W);
    for (let i = 0; i < 1_000; i++) limiter.take(`old-${i}`, at(10, 1_000));
    expect(limiter.size).toBe(1_000);

    // In window 11 the window-10 counts are still weighted in, so nothing goes.
    limiter.take("recent", at(11, 1_000));
    expect(limiter.size).toBe(1_001);
    expect(limiter.take("old-1", at(11, 2_000)).remaining).toBe(99); // floor(1 × 0.97) = 0 of the previous + this one

    // The first request of window 12, from any identifier, drops everything last seen in window 10.
    limiter.take("new", at(12));
    expect(limiter.size).toBe(3); // "recent" and "old-1" (seen in window 11) and "new"
    // "recent" kept its window-11 count: at the very start of window 12 it still weighs fully.
    expect(limiter.take("recent", at(12)).remaining).toBe(98);
    // A swept identifier starts afresh.
    expect(limiter.take("old-2", at(12)).remaining).toBe(99);
  });
});

describe("peek", () => {
  it("tells the verdict without counting a request", async () => {
    const limiter = new MemorySlidingWindow(2, 60_000);
    expect((await limiter.peek("a")).success).toBe(true);
    await limiter.limit("a");
    expect((await limiter.peek("a")).remaining).toBe(1);
    await limiter.limit("a");
    expect((await limiter.peek("a")).success).toBe(false);
    expect((await limiter.peek("a")).success).toBe(false);
    expect((await limiter.peek("b")).success).toBe(true);
  });
});
