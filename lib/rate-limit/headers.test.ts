import { describe, expect, it } from "vitest";
import { rateLimitHeaders } from "./index";

describe("rateLimitHeaders", () => {
  const now = 1_700_000_000_000;

  it("reports limit, remaining and reset (Unix seconds, rounded up) without Retry-After when allowed", () => {
    const headers = rateLimitHeaders({ success: true, limit: 100, remaining: 42, reset: now + 30_500 }, now);
    expect(headers).toEqual({
      "X-RateLimit-Limit": "100",
      "X-RateLimit-Remaining": "42",
      "X-RateLimit-Reset": String(Math.ceil((now + 30_500) / 1000)),
    });
  });

  it("adds Retry-After in whole seconds, rounded up, when refused", () => {
    expect(rateLimitHeaders({ success: false, limit: 100, remaining: 0, reset: now + 1_500 }, now)["Retry-After"]).toBe("2");
    expect(rateLimitHeaders({ success: false, limit: 100, remaining: 0, reset: now + 60_000 }, now)["Retry-After"]).toBe("60");
  });

  it("never sends a negative remaining or a Retry-After under one second", () => {
    const headers = rateLimitHeaders({ success: false, limit: 100, remaining: -3, reset: now - 10 }, now);
    expect(headers["X-RateLimit-Remaining"]).toBe("0");
    expect(headers["Retry-After"]).toBe("1");
  });
});
