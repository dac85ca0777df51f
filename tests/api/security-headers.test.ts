import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, newAccount } from "../harness/client";
import { signIn, signUpUser, uniqueEmail } from "../harness/dashboard";

// The headers of each kind of response: dashboard and sign-in pages cannot be framed and carry a
// CSP with a per-request nonce; share pages may be framed and send no referrer; every response is nosniff.
let cookie: string;
let shareToken: string;
beforeAll(async () => {
  const user = await signUpUser(baseUrl(), uniqueEmail("headers"));
  cookie = (await signIn(baseUrl(), user.email, user.password)).cookie;
  const account = await newAccount();
  const trackable = await account.api("POST", "/trackables", { name: "Van" });
  const link = await account.api("POST", "/share-links", { trackableId: trackable.body.id });
  shareToken = new URL(link.body.url).pathname.split("/").pop()!;
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl()}${path}`, { headers, redirect: "manual" });

function expectDashboardHeaders(res: Response) {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toContain("object-src 'none'");
  // The map tiles (NEXT_PUBLIC_MAP_TILE_URL) are allowed as images.
  expect(csp).toMatch(/img-src 'self' data: blob: \S+/);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
}

describe("security headers", () => {
  it.each(["/sign-in", "/sign-up", "/", "/docs/api", "/no-such-page"])("%s: no framing, a CSP, nosniff, a referrer policy", async (path) => {
    expectDashboardHeaders(await get(path));
  });

  it.each(["/trackables", "/account", "/webhooks", "/api-keys"])("dashboard page %s, signed in and not", async (path) => {
    const signedIn = await get(path, { cookie });
    expect(signedIn.status).toBe(200);
    expectDashboardHeaders(signedIn);
    expectDashboardHeaders(await get(path));
  });

  it("the nonce changes per request and is the one on the page's scripts", async () => {
    const [a, b] = await Promise.all([get("/sign-in"), get("/sign-in")]);
    const nonce = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy")!)![1];
    expect(nonce(a)).not.toBe(nonce(b));
    const html = await a.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce(a)}"`);
  });

  it("a client cannot choose the nonce through a CSP request header of its own", async () => {
    const res = await get("/sign-in", { "Content-Security-Policy": "script-src 'nonce-chosenbyclient'" });
    expect(res.headers.get("content-security-policy")).not.toContain("chosenbyclient");
    expect(await res.text()).not.toContain("chosenbyclient");
  });

  it("share pages may be framed and send no referrer (valid and unknown tokens alike)", async () => {
    for (const path of [`/share/${shareToken}`, "/share/not-a-token"]) {
      const res = await get(path);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self' 'nonce-");
      expect(csp).not.toContain("frame-ancestors");
      expect(res.headers.get("x-frame-options")).toBeNull();
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("API and device (/ingest) responses are nosniff and carry no page policy", async () => {
    for (const path of ["/api/health", "/ingest/traccar"]) {
      const res = await get(path);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBeNull();
      expect(res.headers.get("x-frame-options")).toBeNull();
    }
  });
});
