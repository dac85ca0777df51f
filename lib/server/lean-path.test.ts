import { describe, expect, it } from "vitest";
import { acceptsGzip, leanRoute } from "./lean-path";

describe("acceptsGzip", () => {
  it("reads Accept-Encoding as RFC 9110 does: listed or *, unless its weight is 0", () => {
    expect(acceptsGzip("gzip")).toBe(true);
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, GZIP;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(["deflate", "x-gzip"])).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("br, deflate")).toBe(false);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("gzip; q=0.000")).toBe(false);
    expect(acceptsGzip("*, gzip;q=0")).toBe(false);
    expect(acceptsGzip("*;q=0")).toBe(false);
  });
});

describe("leanRoute", () => {
  it("takes the posts that carry positions and the health probe, and leaves everything else to Next.js", () => {
    expect(leanRoute("POST", "/api/v1/trackables/5f0c6c1e-0000-4000-8000-000000000000/locations")).not.toBeNull();
    expect(leanRoute("POST", "/api/v1/trackables/%20/locations")).not.toBeNull();
    expect(leanRoute("POST", "/ingest/traccar")).not.toBeNull();
    expect(leanRoute("GET", "/ingest/traccar")).not.toBeNull();
    expect(leanRoute("POST", "/ingest/owntracks")).not.toBeNull();
    expect(leanRoute("POST", "/ingest/overland")).not.toBeNull();
    expect(leanRoute("GET", "/api/health")).not.toBeNull();
    for (const [method, path] of [
      ["GET", "/api/v1/trackables/x/locations"],
      ["OPTIONS", "/api/v1/trackables/x/locations"],
      ["POST", "/api/v1/trackables/x/locations/"],
      ["POST", "/api/v1/trackables/x/locations/latest"],
      ["POST", "/api/v1/trackables/x/y/locations"],
      ["POST", "/api/v1/trackables"],
      ["GET", "/ingest/owntracks"],
      ["DELETE", "/ingest/traccar"],
      ["POST", "/ingest/nothing"],
      ["HEAD", "/api/health"],
      ["POST", "/api/health"],
      ["GET", "/api/health/"],
    ] as const) {
      expect(leanRoute(method, path), `${method} ${path}`).toBeNull();
    }
  });
});
