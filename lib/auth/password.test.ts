import { describe, expect, it } from "vitest";
import { hashPassword, passwordHashingStats, verifyPassword } from "./password";

describe("password hashing concurrency", () => {
  it("a burst of hashes never runs more than the cap at once, and every one completes", async () => {
    const stored = await hashPassword("correct horse battery staple");
    const { concurrency } = passwordHashingStats();
    expect(concurrency).toBeGreaterThanOrEqual(1);
    const burst = 4 * concurrency + 4;
    let maxQueued = 0;
    const sampler = setInterval(() => (maxQueued = Math.max(maxQueued, passwordHashingStats().queued)), 1);
    const results = await Promise.all(
      Array.from({ length: burst }, (_, i) => verifyPassword(i % 2 ? "correct horse battery staple" : "wrong", stored)),
    );
    clearInterval(sampler);
    expect(results.filter(Boolean)).toHaveLength(burst / 2);
    const stats = passwordHashingStats();
    expect(stats.peak).toBeLessThanOrEqual(concurrency);
    // The rest waited in the queue instead of running beside them.
    expect(maxQueued).toBeGreaterThanOrEqual(burst - concurrency - 1);
    expect(stats.running).toBe(0);
    expect(stats.queued).toBe(0);
  }, 60_000);
});
