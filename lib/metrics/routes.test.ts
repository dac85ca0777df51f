import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { routeMatcher, UNMATCHED_ROUTE } from "./routes";

// The shape of Next.js's .next/routes-manifest.json: static pages, and dynamic ones most specific first.
const manifest = {
  staticRoutes: [{ page: "/api/health", regex: "^/api/health(?:/)?$" }, { page: "/api/v1/trackables", regex: "^/api/v1/trackables(?:/)?$" }],
  dynamicRoutes: [
    { page: "/api/v1/trackables/[trackableId]", regex: "^/api/v1/trackables/([^/]+?)(?:/)?$" },
    { page: "/api/v1/trackables/[trackableId]/locations", regex: "^/api/v1/trackables/([^/]+?)/locations(?:/)?$" },
    { page: "/api/v1/[...path]", regex: "^/api/v1/(.+?)(?:/)?$" },
  ],
};

describe("routeMatcher", () => {
  const routeOf = routeMatcher(manifest, ["/metrics"]);

  it("names the pattern that serves a path, static routes first", () => {
    expect(routeOf("/api/health")).toBe("/api/health");
    expect(routeOf("/api/v1/trackables/")).toBe("/api/v1/trackables");
    expect(routeOf("/metrics")).toBe("/metrics");
    expect(routeOf("/api/v1/nothing/here")).toBe("/api/v1/[...path]");
    expect(routeOf("/_next/static/chunks/app.js")).toBe("/_next/static");
    expect(routeOf("/no-such-page")).toBe(UNMATCHED_ROUTE);
  });

  it("never puts a path's own segments into the label", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{1,40}$/).filter((s) => s !== "locations");
    fc.assert(
      fc.property(segment, fc.boolean(), (id, sub) => {
        const route = routeOf(`/api/v1/trackables/${id}${sub ? "/locations" : ""}`);
        expect(route).toBe(sub ? "/api/v1/trackables/[trackableId]/locations" : "/api/v1/trackables/[trackableId]");
      }),
    );
  });
});
