import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, retryAfterMs, retryDelayMs } from "./receiver-signals";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");

describe("Retry-After", () => {
  it("reads delay-seconds and HTTP-dates, on 429 and 503 only", () => {
    expect(retryAfterMs(429, "120", NOW)).toBe(120_000);
    expect(retryAfterMs(503, " 7 ", NOW)).toBe(7_000);
    expect(retryAfterMs(503, "Sun, 22 Nov 2026 10:00:30 GMT", NOW)).toBe(30_000);
    expect(retryAfterMs(500, "120", NOW)).toBeNull();
    expect(retryAfterMs(429, null, NOW)).toBeNull();
  });

  it("caps at one hour; a past date is 0; garbage is ignored", () => {
    expect(retryAfterMs(429, "86400", NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(429, "Mon, 23 Nov 2026 10:00:00 GMT", NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(429, "Sun, 22 Nov 2026 09:00:00 GMT", NOW)).toBe(0);
    expect(retryAfterMs(429, "-5", NOW)).toBeNull();
    expect(retryAfterMs(429, "1.5", NOW)).toBeNull();
    expect(retryAfterMs(429, "soon", NOW)).toBeNull();
  });

  it("only ever lengthens the scheduled wait", () => {
    expect(retryDelayMs(5_000, 429, "60", NOW)).toBe(60_000);
    expect(retryDelayMs(120_000, 429, "60", NOW)).toBe(120_000);
    expect(retryDelayMs(5_000, 500, "60", NOW)).toBe(5_000);
  });
});
