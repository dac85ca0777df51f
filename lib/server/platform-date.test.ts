import { afterEach, describe, expect, it } from "vitest";
import { restorePlatformDate } from "./platform-date";

const platform = globalThis.Date;
afterEach(() => restorePlatformDate(platform));

describe("restorePlatformDate", () => {
  it("puts back the Date that Next.js's server wraps, with its prototype's constructor", async () => {
    // What the app server's app.prepare() loads: the wrapper replaces the global Date.
    await import("next/dist/server/node-environment-extensions/date.js");
    expect(globalThis.Date).not.toBe(platform);
    const wrapped = new Date(1_764_403_200_000);

    restorePlatformDate(platform);
    expect(globalThis.Date).toBe(platform);
    expect(new Date(0).constructor).toBe(platform);
    expect(Date.now()).toBeGreaterThan(0);
    // A Date made through the wrapper is the platform's own object.
    expect(wrapped).toBeInstanceOf(platform);
    expect(wrapped.toISOString()).toBe("2025-11-29T08:00:00.000Z");
  });

  it("leaves the platform's Date alone when nothing replaced it", () => {
    restorePlatformDate(platform);
    expect(globalThis.Date).toBe(platform);
  });
});
