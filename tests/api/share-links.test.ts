import { describe, expect, it } from "vitest";
import { baseUrl, newAccount, request, type ApiResponse, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";
import { awayFromWindowEdge } from "../support/window-edge";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NIL_V4 = "00000000-0000-4000-8000-000000000000";
const DAY_S = 86_400;
const MAX_S = 2_592_000;

async function trackableOf(owner: TestAccount, name = "Van 12", type = "vehicle") {
  const res = await owner.api("POST", "/trackables", { name, type });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function shareLinkOf(owner: TestAccount, body: Record<string, unknown> = {}) {
  const trackableId = (body.trackableId as string | undefined) ?? (await trackableOf(owner));
  const res = await owner.api("POST", "/share-links", { trackableId, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; trackableId: string; url: string; expiresAt: string; revokedAt: string | null; name: string | null; createdAt: string };
}

/** The token at the end of a link's url. */
const tokenOf = (link: { url: string }) => new URL(link.url).pathname.split("/").pop()!;

/** GET /api/public/share/<token>, without a key; `ip` goes into X-Forwarded-For (the per-address limit's key). */
const publicView = (token: string, ip?: string) =>
  request("GET", `/api/public/share/${token}`, { headers: ip ? { "X-Forwarded-For": ip } : {} });

function expectInvalid(res: ApiResponse, fragments: string[], label = "") {
  expect(res.status, `${label} ${res.text}`).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  for (const f of fragments) expect(res.body.error.message, label).toContain(f);
}

function expectPublic404(res: ApiResponse) {
  expect(res.status, res.text).toBe(404);
  expect(res.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-robots-tag")).toBe("noindex");
}

const secondsFromNow = (s: number) => new Date(Date.now() + s * 1000).toISOString();

securitySuite("GET /share-links", { method: "GET", path: () => "/share-links" }, { tenancy: false });
securitySuite("POST /share-links", {
  method: "POST",
  path: () => "/share-links",
  body: { trackableId: NIL_V4 },
}, { tenancy: false });
securitySuite("GET /share-links/{shareLinkId}", { method: "GET", path: async (o) => `/share-links/${(await shareLinkOf(o)).id}` });
securitySuite("DELETE /share-links/{shareLinkId}", { method: "DELETE", path: async (o) => `/share-links/${(await shareLinkOf(o)).id}` });

describe("share links: create and read", () => {
  it("creates with the defaults (24 hours) and reads it back", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    const before = Date.now();
    const res = await a.api("POST", "/share-links", { trackableId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      trackableId,
      name: null,
      url: expect.stringMatching(new RegExp(`^${baseUrl().replace(/[.]/g, "\\.")}/share/[A-Za-z0-9_-]{43}$`)),
      expiresAt: expect.stringMatching(ISO),
      revokedAt: null,
      createdAt: expect.stringMatching(ISO),
    });
    const expires = Date.parse(res.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + DAY_S * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + DAY_S * 1000 + 1000);
    expect(expires - Date.parse(res.body.createdAt)).toBe(DAY_S * 1000);

    const got = await a.api("GET", `/share-links/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect((await a.api("GET", `/share-links/${res.body.id.toUpperCase()}`)).body).toEqual(res.body);
  });

  it("each link gets its own unguessable token (256 bits, base64url)", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) tokens.add(tokenOf(await shareLinkOf(a, { trackableId })));
    expect(tokens.size).toBe(5);
    for (const t of tokens) expect(Buffer.from(t, "base64url")).toHaveLength(32);
  });

  it("takes a trimmed name, an upper-case trackable id, expiresIn at both bounds and a valid expiresAt", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    const named = await shareLinkOf(a, { trackableId: trackableId.toUpperCase(), name: "  For the customer  " });
    expect(named).toMatchObject({ trackableId, name: "For the customer" });
    expect((await shareLinkOf(a, { trackableId, name: "n".repeat(100) })).name).toBe("n".repeat(100));
    expect((await shareLinkOf(a, { trackableId, name: null })).name).toBeNull();

    for (const expiresIn of [60, 3600, MAX_S]) {
      const link = await shareLinkOf(a, { trackableId, expiresIn });
      expect(Date.parse(link.expiresAt) - Date.parse(link.createdAt), String(expiresIn)).toBe(expiresIn * 1000);
    }
    const at = secondsFromNow(7 * DAY_S);
    expect((await shareLinkOf(a, { trackableId, expiresAt: at })).expiresAt).toBe(at);
    // With an offset, normalised to UTC: the same instant written in +02:00.
    const instant = Math.floor(Date.now() / 1000) * 1000 + 7200_000;
    const withOffset = new Date(instant + 7200_000).toISOString().replace(/Z$/, "+02:00");
    expect((await shareLinkOf(a, { trackableId, expiresAt: withOffset })).expiresAt).toBe(new Date(instant).toISOString());
  });

  it("refuses expiresIn outside 60–2592000 and non-integers, naming the field", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    for (const expiresIn of [59, 2_592_001, 0, -60, 60.5, "3600", null, 1e21]) {
      expectInvalid(await a.api("POST", "/share-links", { trackableId, expiresIn }), ["expiresIn", "between 60 and 2592000"], String(expiresIn));
    }
  });

  it("refuses an expiresAt in the past, too soon, more than 30 days away or malformed", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    for (const expiresAt of [secondsFromNow(-3600), secondsFromNow(30), secondsFromNow(MAX_S + 60), "2030-01-01", "tomorrow", 1767225600000]) {
      expectInvalid(await a.api("POST", "/share-links", { trackableId, expiresAt }), ["expiresAt"], String(expiresAt));
    }
    expectInvalid(await a.api("POST", "/share-links", { trackableId, expiresAt: secondsFromNow(-1) }), ["expiresAt", "in the past"]);
  });

  it("refuses expiresIn and expiresAt together", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    const res = await a.api("POST", "/share-links", { trackableId, expiresIn: 3600, expiresAt: secondsFromNow(3600) });
    expectInvalid(res, ["expiresAt: give either expiresIn or expiresAt, not both"]);
  });

  it("names every offending field at once, unknown fields included", async () => {
    const a = await newAccount();
    const res = await a.api("POST", "/share-links", { trackableId: "nope", name: "x".repeat(101), expiresIn: 59, token: "mine" });
    expectInvalid(res, ["trackableId", "name: must be 1–100 characters", "expiresIn", 'token: unknown field "token"']);
    expectInvalid(await a.api("POST", "/share-links", {}), ["trackableId"]);
    expectInvalid(await a.api("POST", "/share-links", { trackableId: NIL_V4, name: "   " }), ["name"]);
    for (const body of ["[]", "not json", '"str"', ""]) {
      const r = await request("POST", "/api/v1/share-links", { key: a.key, body });
      expect(r.status, body).toBe(400);
      expect(r.body.error.code).toBe("invalid_request");
    }
  });

  it("an unknown trackable or another account's is 404 not_found", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const theirs = await trackableOf(b);
    for (const trackableId of [NIL_V4, theirs]) {
      const res = await a.api("POST", "/share-links", { trackableId });
      expect(res.status, trackableId).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await a.api("GET", "/share-links")).body.data).toEqual([]);
  });

  it("is available on the free plan", async () => {
    const free = await newAccount({ plan: "free" });
    const link = await shareLinkOf(free);
    expect((await free.api("GET", `/share-links/${link.id}`)).status).toBe(200);
    expect((await publicView(tokenOf(link))).status).toBe(200);
    expect((await free.api("DELETE", `/share-links/${link.id}`)).status).toBe(204);
  });

  it("unknown and malformed ids are 404; a blank id is 400; another account's link is 404", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const theirs = await shareLinkOf(b);
    for (const id of [NIL_V4, "not-a-uuid", theirs.id]) {
      for (const method of ["GET", "DELETE"]) {
        const res = await a.api(method, `/share-links/${id}`);
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
    }
    expectInvalid(await a.api("GET", "/share-links/%20"), ["Missing required parameter: shareLinkId"]);
    // b's link survived a's attempts.
    expect((await b.api("GET", `/share-links/${theirs.id}`)).body.revokedAt).toBeNull();
  });

  it("unknown routes are 404 and wrong methods 405, with the envelope", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    const unknown = await a.api("GET", `/share-links/${link.id}/extra`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    for (const [method, path] of [
      ["PATCH", `/share-links/${link.id}`],
      ["PUT", `/share-links/${link.id}`],
      ["POST", `/share-links/${link.id}`],
      ["DELETE", "/share-links"],
      ["PATCH", "/share-links"],
    ] as const) {
      const res = await a.api(method, path, method === "DELETE" ? undefined : { name: "x" });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body.error.code).toBe("method_not_allowed");
      expect(res.headers.get("allow")).toBeTruthy();
    }
    const publicPost = await request("POST", `/api/public/share/${tokenOf(link)}`, { body: {} });
    expect(publicPost.status).toBe(405);
    expect(publicPost.body.error.code).toBe("method_not_allowed");
  });
});

describe("share links: list", () => {
  it("lists newest first with cursor pagination, filtered by trackableId", async () => {
    const a = await newAccount();
    const [t1, t2] = [await trackableOf(a, "T1"), await trackableOf(a, "T2")];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await shareLinkOf(a, { trackableId: i % 2 === 0 ? t1 : t2, name: `L${i}` })).id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: ApiResponse = await a.api("GET", `/share-links?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((l: { id: string }) => l.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const names = async (q: string) => ((await a.api("GET", `/share-links${q}`)).body.data as Array<{ name: string }>).map((l) => l.name);
    expect(await names(`?trackableId=${t1}`)).toEqual(["L4", "L2", "L0"]);
    expect(await names(`?trackableId=${t2.toUpperCase()}`)).toEqual(["L3", "L1"]);
    const page1 = await a.api("GET", `/share-links?trackableId=${t1}&limit=2`);
    const page2 = await a.api("GET", `/share-links?trackableId=${t1}&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });

  it("?active= separates working links from revoked ones", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    const kept = await shareLinkOf(a, { trackableId, name: "kept" });
    const revoked = await shareLinkOf(a, { trackableId, name: "revoked" });
    expect((await a.api("DELETE", `/share-links/${revoked.id}`)).status).toBe(204);
    const ids = async (q: string) => ((await a.api("GET", `/share-links${q}`)).body.data as Array<{ id: string }>).map((l) => l.id);
    expect(await ids("?active=true")).toEqual([kept.id]);
    expect(await ids("?active=false")).toEqual([revoked.id]);
    expect(await ids("")).toEqual([revoked.id, kept.id]);
    expectInvalid(await a.api("GET", "/share-links?active=yes"), ["active"]);
  });

  it("validates limit, cursor and trackableId; another account's trackable is not a filter", async () => {
    const a = await newAccount();
    const b = await newAccount();
    expect((await a.api("GET", "/share-links")).body).toEqual({ data: [], nextCursor: null });
    for (const q of ["limit=0", "limit=101", "limit=abc", "cursor=garbage!!"]) {
      expectInvalid(await a.api("GET", `/share-links?${q}`), [q.startsWith("cursor") ? "cursor" : "limit"], q);
    }
    expectInvalid(await a.api("GET", "/share-links?trackableId=nope"), ["trackableId"]);
    expectInvalid(await a.api("GET", `/share-links?trackableId=${NIL_V4}`), ["trackableId: no such trackable"]);
    expectInvalid(await a.api("GET", `/share-links?trackableId=${await trackableOf(b)}`), ["trackableId: no such trackable"]);
    expect((await a.api("GET", "/share-links?limit=100&unknown=1")).status).toBe(200);
  });

  it("one account never lists another's links", async () => {
    const a = await newAccount();
    const b = await newAccount();
    await shareLinkOf(b);
    const mine = await shareLinkOf(a);
    expect((await a.api("GET", "/share-links")).body.data).toEqual([mine]);
  });
});

describe("share links: revoke", () => {
  it("revokes (204); the link stays readable with revokedAt; a second revoke is 409 conflict", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    const token = tokenOf(link);
    expect((await publicView(token)).status).toBe(200);

    const first = await a.api("DELETE", `/share-links/${link.id}`);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    const got = await a.api("GET", `/share-links/${link.id}`);
    expect(got.body).toEqual({ ...link, revokedAt: expect.stringMatching(ISO) });

    const second = await a.api("DELETE", `/share-links/${link.id}`);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("conflict");
    expect(second.body.error.message).toContain(got.body.revokedAt);
    expect((await a.api("GET", `/share-links/${link.id}`)).body.revokedAt).toBe(got.body.revokedAt);

    expectPublic404(await publicView(token));
  });

  it("of concurrent revokes exactly one succeeds", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    const results = await Promise.all(Array.from({ length: 5 }, () => a.api("DELETE", `/share-links/${link.id}`)));
    expect(results.map((r) => r.status).sort()).toEqual([204, 409, 409, 409, 409]);
  });

  it("revoking one link leaves the trackable's other links working", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a);
    const [l1, l2] = [await shareLinkOf(a, { trackableId }), await shareLinkOf(a, { trackableId })];
    await a.api("DELETE", `/share-links/${l1.id}`);
    expectPublic404(await publicView(tokenOf(l1)));
    expect((await publicView(tokenOf(l2))).status).toBe(200);
  });

  it("deleting the trackable deletes its links", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    expect((await a.api("DELETE", `/trackables/${link.trackableId}`)).status).toBe(204);
    expect((await a.api("GET", `/share-links/${link.id}`)).status).toBe(404);
    expectPublic404(await publicView(tokenOf(link)));
  });
});

describe("share links: the public endpoint", () => {
  it("shows the name, type, latest location without ids and the expiry; no-store, noindex", async () => {
    const a = await newAccount();
    const trackableId = await trackableOf(a, "Van 12", "vehicle");
    const link = await shareLinkOf(a, { trackableId, expiresIn: 3600 });
    const token = tokenOf(link);

    const empty = await publicView(token);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ trackable: { name: "Van 12", type: "vehicle" }, location: null, expiresAt: link.expiresAt });
    expect(empty.headers.get("cache-control")).toBe("no-store");
    expect(empty.headers.get("x-robots-tag")).toBe("noindex");
    expect(empty.headers.get("content-type")).toContain("application/json");

    const older = { latitude: 52.5, longitude: 13.4, timestamp: secondsFromNow(-120) };
    const newest = { latitude: 52.52, longitude: 13.405, accuracy: 12.5, battery: 80, timestamp: secondsFromNow(-10) };
    const posted = await a.api("POST", `/trackables/${trackableId}/locations`, { locations: [newest, older] });
    expect(posted.status).toBe(201);
    const stored = posted.body.data[0];

    const seen = await publicView(token);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      trackable: { name: "Van 12", type: "vehicle" },
      location: {
        latitude: 52.52,
        longitude: 13.405,
        accuracy: 12.5,
        altitude: null,
        speed: null,
        heading: null,
        battery: 80,
        timestamp: stored.timestamp,
        receivedAt: stored.receivedAt,
        source: "api",
      },
      expiresAt: link.expiresAt,
    });
    // No ids beyond the token: neither the location's, the trackable's, the link's nor the account's.
    for (const id of [trackableId, stored.id, link.id, a.accountId]) expect(seen.text).not.toContain(id);
  });

  it("follows the trackable's latest location", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    await a.api("POST", `/trackables/${link.trackableId}/locations`, { latitude: 1, longitude: 2 });
    expect((await publicView(tokenOf(link))).body.location).toMatchObject({ latitude: 1, longitude: 2 });
    await a.api("POST", `/trackables/${link.trackableId}/locations`, { latitude: 3, longitude: 4 });
    expect((await publicView(tokenOf(link))).body.location).toMatchObject({ latitude: 3, longitude: 4 });
  });

  it("unknown, malformed and altered tokens are 404 with the same message as a revoked one", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    const token = tokenOf(link);
    const revoked = await shareLinkOf(a);
    await a.api("DELETE", `/share-links/${revoked.id}`);
    const messages = new Set<string>();
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const t of [altered, "short", "x".repeat(43), "%20", tokenOf(revoked), encodeURIComponent(`${token}/`)]) {
      const res = await publicView(t);
      expectPublic404(res);
      messages.add(res.body.error.message);
    }
    expect(messages.size).toBe(1);
    // An unknown path under /api/public is a 404 too, with the JSON envelope.
    for (const path of ["/api/public/share", "/api/public/nothing/here"]) {
      const res = await request("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe("not_found");
    }
  });

  it("the public page is 200 with noindex for a valid link and 404 \"no longer valid\" for a revoked one", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    const page = await fetch(link.url.replace(/^https?:\/\/[^/]+/, baseUrl()));
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await page.text();
    expect(html).toContain("Van 12");
    expect(html).toMatch(/<meta name="robots" content="noindex[^"]*"/);
    expect(html).not.toContain(link.trackableId);

    await a.api("DELETE", `/share-links/${link.id}`);
    const gone = await fetch(link.url.replace(/^https?:\/\/[^/]+/, baseUrl()));
    expect(gone.status).toBe(404);
    const goneHtml = await gone.text();
    expect(goneHtml).toContain("This link is no longer valid");
    expect(goneHtml).not.toContain("Van 12");
    expect(goneHtml).toMatch(/<meta name="robots" content="noindex[^"]*"/);
  });

  it("429 with Retry-After after 120 requests a minute to one link", async () => {
    const a = await newAccount();
    const link = await shareLinkOf(a);
    const token = tokenOf(link);
    // Spread over addresses, so only the per-link limit (120 a minute) applies, and inside one limiter window.
    await awayFromWindowEdge(20_000);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => publicView(token, `198.51.100.${i * 10 + j}`)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await publicView(token, "198.51.100.200");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
    expect(refused.body.error.message).toContain("per share link");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("x-robots-tag")).toBe("noindex");
    // Another link is not affected, and neither is the API.
    expect((await publicView(tokenOf(await shareLinkOf(a)), "198.51.100.201")).status).toBe(200);
  });
});
