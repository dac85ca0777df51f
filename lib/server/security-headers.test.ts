import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, pageKind, securityHeaders, tileSource } from "./security-headers";

describe("security headers", () => {
  it("tells pages, share pages, the API and assets apart", () => {
    expect(pageKind("/trackables")).toBe("page");
    expect(pageKind("/sign-in")).toBe("page");
    expect(pageKind("/share/abc")).toBe("share");
    expect(pageKind("/api/v1/trackables")).toBe("api");
    expect(pageKind("/api")).toBe("api");
    expect(pageKind("/ingest/traccar")).toBe("api");
    expect(pageKind("/ingestion")).toBe("page");
    expect(pageKind("/apiary")).toBe("page");
    expect(pageKind("/_next/static/chunks/a.js")).toBe("asset");
  });

  it("allows the map tile server in img-src", () => {
    expect(tileSource("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png")).toBe("https://*.tile.openstreetmap.org");
    expect(tileSource("http://127.0.0.1:9/{z}/{x}/{y}.png")).toBe("http://127.0.0.1:9");
    expect(tileSource("/tiles/{z}/{x}/{y}.png")).toBeNull();
    const csp = contentSecurityPolicy({ nonce: "abc", tileUrl: "https://tiles.example.com/{z}/{x}/{y}.png", frameable: false });
    expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.com");
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("share pages may be framed and send no referrer; dashboard pages may not be framed", () => {
    const share = securityHeaders("share", { nonce: "n", tileUrl: "" });
    expect(share["Content-Security-Policy"]).not.toContain("frame-ancestors");
    expect(share["X-Frame-Options"]).toBeUndefined();
    expect(share["Referrer-Policy"]).toBe("no-referrer");
    const page = securityHeaders("page", { nonce: "n", tileUrl: "" });
    expect(page["X-Frame-Options"]).toBe("DENY");
    expect(page["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(securityHeaders("api", { nonce: "n", tileUrl: "" })).toEqual({ "X-Content-Type-Options": "nosniff" });
  });
});
