import type { Limiter, RateLimitResult } from "./types";

/**
 * The in-process backend: the same sliding-window approximation as @upstash/ratelimit's slidingWindow (the previous
 * fixed window's count weighted by how much of it still overlaps the rolling window, plus the current one). Node runs
 * it on one thread, so concurrent requests can never both take the last slot.
 */
export class MemorySlidingWindow implements Limiter {
  private readonly windows = new Map<string, { window: number; current: number; previous: number }>();
  private lastSweep = 0;

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** How many identifiers the limiter currently holds counts for. */
  get size(): number {
    return this.windows.size;
  }

  async limit(identifier: string): Promise<RateLimitResult> {
    return this.take(identifier, Date.now());
  }

  async peek(identifier: string): Promise<RateLimitResult> {
    return this.take(identifier, Date.now(), false);
  }

  take(identifier: string, now: number, count = true): RateLimitResult {
    const window = Math.floor(now / this.windowMs);
    const reset = (window + 1) * this.windowMs;
    let entry = this.windows.get(identifier);
    if (!entry || entry.window < window - 1) entry = { window, current: 0, previous: 0 };
    else if (entry.window === window - 1) entry = { window, current: 0, previous: entry.current };
    if (!count) {
      const used = Math.floor(entry.previous * (1 - (now % this.windowMs) / this.windowMs)) + entry.current;
      return { success: used < this.max, limit: this.max, remaining: Math.max(0, this.max - used), reset };
    }
    this.windows.set(identifier, entry);
    this.sweep(window);

    const overlap = 1 - (now % this.windowMs) / this.windowMs;
    const used = Math.floor(entry.previous * overlap) + entry.current;
    if (used >= this.max) return { success: false, limit: this.max, remaining: 0, reset };
    entry.current += 1;
    return { success: true, limit: this.max, remaining: Math.max(0, this.max - used - 1), reset };
  }

  /** Drops identifiers idle for two windows so the map does not grow with every key ever seen. */
  private sweep(window: number) {
    if (window === this.lastSweep) return;
    this.lastSweep = window;
    for (const [id, entry] of this.windows) if (entry.window < window - 1) this.windows.delete(id);
  }
}
