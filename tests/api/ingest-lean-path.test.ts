import { describe, expect, it } from "vitest";
import { newAccount } from "../harness/client";
import { GZIP_ON_LOOP_BYTES } from "@/lib/server/lean-path";
import { newDevice, send, storedLocations } from "../support/devices";

// The app server answers posts that carry positions, and GET /api/health, itself (lib/server/lean-path.ts), not through Next.js. Every response Next.js
// renders carries its router's `Vary: rsc, next-router-state-tree, …` (the 405 and 404 below show it), so a device
// post answered without it was never seen by Next.js — and still has the app server's client address, security
// headers and the verb's behaviour.

const NEXT_VARY = /\brsc\b/;
type Reply = { status: number; headers: Headers; text: string };
/** Answered by the app server itself: no Next.js router Vary. */
const expectLean = (res: Reply) => expect(res.headers.get("vary") ?? "").not.toMatch(NEXT_VARY);
/** Answered by Next.js, with this status. */
function expectNextJs(res: Reply, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("vary")).toMatch(NEXT_VARY);
}

describe("the lean device path", () => {
  it("stores a Traccar post (GET and POST), an OwnTracks post and an Overland batch without Next.js", async () => {
    const { account, trackableId, token } = await newDevice();
    const t = Math.floor(Date.now() / 1000) - 30;
    const posted = await send("POST", `/ingest/traccar?id=${token}&lat=52.5&lon=13.4&timestamp=${t}`);
    const got = await send("GET", `/ingest/traccar?id=${token}&lat=52.51&lon=13.41&timestamp=${t + 1}`);
    const owntracks = await send("POST", "/ingest/owntracks", {
      headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(`u:${token}`).toString("base64")}` },
      body: JSON.stringify({ _type: "location", lat: 52.52, lon: 13.42, tst: t + 2 }),
    });
    const overland = await send("POST", "/ingest/overland", {
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        locations: [
          { type: "Feature", geometry: { type: "Point", coordinates: [13.43, 52.53] }, properties: { timestamp: new Date((t + 3) * 1000).toISOString() } },
        ],
      }),
    });
    for (const res of [posted, got, owntracks, overland]) {
      expect(res.status, res.text).toBe(200);
      expectLean(res);
      // The app server's headers for this kind of path, as on every other response.
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const stored = await storedLocations(account, trackableId);
    expect(stored.map((l: { source: string }) => l.source)).toEqual(["traccar", "traccar", "owntracks", "overland"]);
  });

  it("normalises a heading of 360 and refuses or drops an epoch fix time there too: the API answers 400, a device app 200", async () => {
    const { account, trackableId, token } = await newDevice();
    const path = `/api/v1/trackables/${trackableId}/locations`;
    const auth = { "Content-Type": "application/json", Authorization: `Bearer ${account.key}` };
    const api = await send("POST", path, { headers: auth, body: JSON.stringify({ latitude: 1, longitude: 1, heading: 360 }) });
    expect(api.status, api.text).toBe(201);
    expect(api.json.data[0].heading).toBe(0);
    const epoch = await send("POST", path, { headers: auth, body: JSON.stringify({ latitude: 1, longitude: 1, timestamp: "1970-01-01T00:00:00Z" }) });
    expect(epoch.status).toBe(400);
    expect(epoch.json.error.message).toContain("timestamp: must be after 1970-01-01T00:00:00Z");
    const owntracks = await send("POST", "/ingest/owntracks", {
      headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(`u:${token}`).toString("base64")}` },
      body: JSON.stringify({ _type: "location", lat: 52.52, lon: 13.42, tst: 0, cog: 360 }),
    });
    const traccar = await send("GET", `/ingest/traccar?id=${token}&lat=3&lon=3&timestamp=100000000000000000`);
    for (const res of [api, epoch, owntracks, traccar]) expectLean(res);
    expect([owntracks.status, traccar.status]).toEqual([200, 200]);
    expect((await storedLocations(account, trackableId)).map((l: { heading: number | null }) => l.heading)).toEqual([0]);
  });

  it("errors are the verb's JSON envelope with the app's challenge; other methods and paths still reach Next.js", async () => {
    const unauthorized = await send("POST", "/ingest/owntracks", { headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.json.error.code).toBe("unauthorized");
    expect(unauthorized.headers.get("www-authenticate")).toContain("Basic");
    expectLean(unauthorized);

    expectNextJs(await send("DELETE", "/ingest/traccar"), 405);
    expectNextJs(await send("POST", "/ingest/nothing-here"), 404);
  });
});

describe("the lean path of POST /api/v1/trackables/{id}/locations", () => {
  const post = (key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    send("POST", `/api/v1${path}`, {
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("stores a point and a batch with the route's reply, rate-limit headers and the app server's headers", async () => {
    const account = await newAccount();
    const trackable = await account.api("POST", "/trackables", { name: "Van" });
    const single = await post(account.key, `/trackables/${trackable.body.id}/locations`, { latitude: 52.5, longitude: 13.4 }, { "Accept-Encoding": "gzip" });
    expect(single.status, single.text).toBe(201);
    expect(single.json.data).toEqual([expect.objectContaining({ latitude: 52.5, longitude: 13.4, trackableId: trackable.body.id })]);
    expectLean(single);
    expect(single.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(single.headers.get("x-content-type-options")).toBe("nosniff");
    expect(single.headers.get("cache-control")).toBe("no-store");
    // Under 1 KB: sent as it is (a gzip stream would cost more CPU than it saves bytes).
    expect(single.headers.get("content-encoding")).toBeNull();
    expect(single.headers.get("content-length")).toBe(String(Buffer.byteLength(single.text)));

    // A batch's reply is over 1 KB: gzipped for a client that takes gzip, as Next.js would, identical once decoded.
    const t0 = Date.now() - 60_000;
    const locations = Array.from({ length: 20 }, (_, i) => ({ latitude: 52.5 + i / 1000, longitude: 13.4, timestamp: new Date(t0 + i * 1000).toISOString() }));
    const gzipped = await post(account.key, `/trackables/${trackable.body.id}/locations`, { locations }, { "Accept-Encoding": "gzip" });
    expect(gzipped.status, gzipped.text).toBe(201);
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("vary")).toBe("Accept-Encoding");
    expect(gzipped.json.data.map((l: { latitude: number }) => l.latitude)).toEqual(locations.map((l) => l.latitude));
    const identity = await post(account.key, `/trackables/${trackable.body.id}/locations`, { locations: locations.map((l) => ({ ...l, timestamp: new Date(Date.parse(l.timestamp) + 30_000).toISOString() })) }, { "Accept-Encoding": "gzip;q=0, identity" });
    expect(identity.status, identity.text).toBe(201);
    expect(identity.headers.get("content-encoding")).toBeNull();
    // A reply over GZIP_ON_LOOP_BYTES (400 points, ~125 KB) takes the other branch, gzip in libuv's pool: the same reply.
    const large = Array.from({ length: 400 }, (_, i) => ({ latitude: 52.5 + i / 10000, longitude: 13.5, timestamp: new Date(t0 + 40_000 + i * 50).toISOString() }));
    const pooled = await post(account.key, `/trackables/${trackable.body.id}/locations`, { locations: large }, { "Accept-Encoding": "gzip" });
    expect(pooled.status, pooled.text).toBe(201);
    expect(pooled.headers.get("content-encoding")).toBe("gzip");
    expect(pooled.text.length).toBeGreaterThan(GZIP_ON_LOOP_BYTES);
    expect(pooled.json.data.map((l: { latitude: number }) => l.latitude)).toEqual(large.map((l) => l.latitude));
    expect(await storedLocations(account, trackable.body.id)).toHaveLength(441);
  });

  it("answers errors as the route does; other methods and a trailing slash still reach Next.js", async () => {
    const account = await newAccount();
    const trackable = await account.api("POST", "/trackables", { name: "Van" });
    const path = `/trackables/${trackable.body.id}/locations`;

    const unauthorized = await post("not-a-key", path, { latitude: 1, longitude: 1 });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.json.error.code).toBe("unauthorized");
    expect(unauthorized.headers.get("www-authenticate")).toContain("Bearer");
    const invalid = await post(account.key, path, { latitude: 91, longitude: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.code).toBe("invalid_request");
    const wrongType = await send("POST", `/api/v1${path}`, { headers: { Authorization: `Bearer ${account.key}`, "Content-Type": "text/plain" }, body: "{}" });
    expect(wrongType.status).toBe(415);
    const unknown = await post(account.key, "/trackables/00000000-0000-4000-8000-000000000000/locations", { latitude: 1, longitude: 1 });
    expect(unknown.status).toBe(404);
    const otherAccount = await newAccount();
    expect((await post(otherAccount.key, path, { latitude: 1, longitude: 1 })).status).toBe(404);
    const blank = await post(account.key, "/trackables//locations", { latitude: 1, longitude: 1 });
    expect(blank.status).toBe(400);
    expect(blank.json.error.message).toBe("Missing required parameter: trackableId");
    for (const res of [unauthorized, invalid, wrongType, unknown, blank]) expectLean(res);

    expectNextJs(await account.api("GET", path), 200);
    expectNextJs(await post(account.key, `${path}/`, { latitude: 1, longitude: 1 }), 201);
  });
});

describe("the lean path of GET /api/health", () => {
  it("is answered by the app server itself; HEAD and other methods by the Next.js route", async () => {
    const get = await send("GET", "/api/health");
    expect(get.status).toBe(200);
    expect(get.json).toEqual({ status: "ok" });
    expectLean(get);
    expect(get.headers.get("cache-control")).toBe("no-store");
    expect(get.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(get.headers.get("x-content-type-options")).toBe("nosniff");
    expectNextJs(await send("HEAD", "/api/health"), 200);
    expectNextJs(await send("POST", "/api/health"), 405);
  });
});
