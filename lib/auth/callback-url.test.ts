import { describe, expect, it } from "vitest";
import { sameOriginPath, signInUrl } from "./callback-url";

const APP = "https://fenceline.example.com";

describe("sameOriginPath", () => {
  it("keeps this site's paths with their query and hash", () => {
    expect(sameOriginPath("/trackables", APP)).toBe("/trackables");
    expect(sameOriginPath("/trackables/abc?range=7d#map", APP)).toBe("/trackables/abc?range=7d#map");
    expect(sameOriginPath(`${APP}/webhooks`, APP)).toBe("/webhooks");
  });

  // Open redirects once found, as the sign-in page receives them (decoded) and as they may arrive still encoded.
  it.each([
    "/\\evil.example",
    "/%5Cevil.example",
    "/\\/evil.example",
    "/\t/evil.example",
    "/%09/evil.example",
    "//evil.example",
    "/.//evil.example",
    "https://evil.example/trackables",
    "http://fenceline.example.com/trackables",
    "javascript:alert(1)",
    "///evil.example",
  ])("refuses %j", (raw) => {
    const path = sameOriginPath(raw, APP);
    if (path !== null) {
      // An encoded backslash stays a harmless path segment on this origin.
      expect(new URL(path, APP).origin).toBe(APP);
      expect(path).not.toMatch(/^\/[/\\]/);
    }
    expect(path === null || raw.includes("%")).toBe(true);
  });

  it("refuses nothing-at-all and a port of its own", () => {
    expect(sameOriginPath("", APP)).toBeNull();
    expect(sameOriginPath(undefined, APP)).toBeNull();
    expect(sameOriginPath("https://fenceline.example.com:8443/x", APP)).toBeNull();
  });
});

describe("signInUrl", () => {
  it("names the page to come back to, encoded, and nothing for the default page or another origin", () => {
    expect(signInUrl("/trackables/abc?range=24h")).toBe("/sign-in?callbackUrl=%2Ftrackables%2Fabc%3Frange%3D24h");
    expect(signInUrl("/trackables")).toBe("/sign-in");
    expect(signInUrl(null)).toBe("/sign-in");
    expect(signInUrl("//evil.example")).toBe("/sign-in");
    expect(signInUrl("/\\evil.example")).toBe("/sign-in");
    expect(signInUrl("https://evil.example/")).toBe("/sign-in");
  });
});
