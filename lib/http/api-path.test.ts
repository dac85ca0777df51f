import { describe, expect, it } from "vitest";
import { apiRequestUrl } from "./api-path";

describe("apiRequestUrl", () => {
  it("makes every empty segment under /api/v1 a blank one, keeping the query", () => {
    expect(apiRequestUrl("/api/v1/trackables//locations")).toBe("/api/v1/trackables/%20/locations");
    expect(apiRequestUrl("/api/v1/trackables//locations?limit=2&next=a//b")).toBe("/api/v1/trackables/%20/locations?limit=2&next=a//b");
    expect(apiRequestUrl("/api/v1/geofences///rotate-secret")).toBe("/api/v1/geofences/%20/%20/rotate-secret");
    expect(apiRequestUrl("/api/v1/trackables/a\\b")).toBe("/api/v1/trackables/a%5Cb");
  });

  it("leaves other paths and clean API paths alone", () => {
    expect(apiRequestUrl("/api/v1/trackables/")).toBe("/api/v1/trackables/");
    expect(apiRequestUrl("/api/v1/trackables?x=//")).toBe("/api/v1/trackables?x=//");
    expect(apiRequestUrl("/trackables//x")).toBe("/trackables//x");
    expect(apiRequestUrl("/api/v10//x")).toBe("/api/v10//x");
  });
});
