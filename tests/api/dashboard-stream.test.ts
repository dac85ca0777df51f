import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, useServer } from "../harness/client";
import { postAction, signIn, signUpUser, uniqueEmail } from "../harness/dashboard";
import { startServer, type TestServer } from "../harness/server";
import { startReceiver } from "../support/receiver";
import { openSse, type SseStream } from "../support/sse";

// The dashboard's live stream on a real server: a signed-in user's pages hear of what changed in their account (events,
// location.updated, change notices of deliveries and trackables) within a second, through the session cookie.

let server: TestServer;
const streams: SseStream[] = [];

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_TIMEOUT_MS: "2000" } });
  useServer(server);
});
afterAll(async () => {
  for (const s of streams) s.close();
  useServer(null);
  await server?.stop();
});

const CENTER = { latitude: 52.52, longitude: 13.405 };
const OUTSIDE = { latitude: 52.53, longitude: 13.405 };

/** A dashboard user with an API key of the same account. */
async function user() {
  const u = await signUpUser(server.baseUrl, uniqueEmail("live"));
  const { cookie, ok } = await signIn(server.baseUrl, u.email, u.password);
  expect(ok).toBe(true);
  const created = await postAction(server.baseUrl, { page: "/api-keys", file: "lib/api-keys/actions.ts", name: "createApiKeyAction", args: [{ name: "live" }], cookie });
  const key = /"(fl_[^"]+)"/.exec(created.text)![1]!;
  const api = async (method: string, path: string, body?: unknown) => request(method, `/api/v1${path}`, { key, body });
  return { cookie, key, api };
}

/** The dashboard stream of `scope`, once it listens (its `ready` frame). */
async function listen(cookie: string, query: string): Promise<SseStream> {
  const s = await openSse(`${server.baseUrl}/api/internal/stream?${query}`, { cookie });
  streams.push(s);
  expect(s.status, JSON.stringify(s.error)).toBe(200);
  await s.until(() => s.frames.some((f) => f.event === "ready"), 10_000, "the ready frame");
  return s;
}

/** The kinds of change the stream named, in order. */
const changes = (s: SseStream) => s.frames.filter((f) => f.event === "change").flatMap((f) => (JSON.parse(f.data) as { types: string[] }).types);

describe("GET /api/internal/stream", () => {
  it("needs a session and a known scope", async () => {
    const anonymous = await openSse(`${server.baseUrl}/api/internal/stream?scope=trackables`);
    streams.push(anonymous);
    expect(anonymous.status).toBe(401);
    expect(anonymous.error.error.code).toBe("unauthorized");

    const { cookie } = await user();
    const bad = await openSse(`${server.baseUrl}/api/internal/stream?scope=nonsense`, { cookie });
    streams.push(bad);
    expect(bad.status).toBe(400);
    const missing = await openSse(`${server.baseUrl}/api/internal/stream?scope=trackable`, { cookie });
    streams.push(missing);
    expect(missing.status).toBe(400);
  });

  it("tells the trackables page of a location within a second, and of a new or renamed trackable", async () => {
    const { cookie, api } = await user();
    const van = (await api("POST", "/trackables", { name: "Van", type: "vehicle" })).body;
    const s = await listen(cookie, "scope=trackables");
    expect(s.headers.get("content-type")).toContain("text/event-stream");
    expect(s.retry).toBe(2000);

    const posted = performance.now();
    expect((await api("POST", `/trackables/${van.id}/locations`, CENTER)).status).toBe(201);
    await s.until(() => changes(s).includes("location.updated"), 5_000, "a location.updated change");
    const ms = s.arrivals[s.frames.findIndex((f) => f.event === "change")]! - posted;
    console.log(`[dashboard-stream] location post to change frame: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1000);

    expect((await api("PATCH", `/trackables/${van.id}`, { name: "Van 2" })).status).toBe(200);
    await s.until(() => changes(s).includes("trackable"), 5_000, "a trackable notice");
    expect((await api("POST", "/trackables", { name: "Bike", type: "bike" })).status).toBe(201);
    await s.until(() => changes(s).filter((t) => t === "trackable").length >= 2, 5_000, "a second trackable notice");
  });

  it("one trackable's page hears of that trackable only; another account hears nothing", async () => {
    const mine = await user();
    const other = await user();
    const van = (await mine.api("POST", "/trackables", { name: "Van", type: "vehicle" })).body;
    const bike = (await mine.api("POST", "/trackables", { name: "Bike", type: "bike" })).body;
    const s = await listen(mine.cookie, `scope=trackable&trackableId=${van.id}`);
    const theirs = await listen(other.cookie, `scope=trackable&trackableId=${van.id}`);
    // The bike's location is not the van's page's business.
    expect((await mine.api("POST", `/trackables/${bike.id}/locations`, CENTER)).status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(changes(s)).toEqual([]);
    expect((await mine.api("POST", `/trackables/${van.id}/locations`, CENTER)).status).toBe(201);
    await s.until(() => changes(s).includes("location.updated"), 5_000, "the van's location");
    expect((await mine.api("DELETE", `/trackables/${van.id}`)).status).toBe(204);
    await s.until(() => changes(s).includes("trackable"), 5_000, "the deletion");
    await new Promise((r) => setTimeout(r, 300));
    expect(changes(theirs)).toEqual([]);
  });

  it("tells the deliveries page of a delivery's attempt; the public stream carries no notices", async () => {
    const { cookie, api, key } = await user();
    const receiver = await startReceiver({ secret: null });
    try {
      const van = (await api("POST", "/trackables", { name: "Van", type: "vehicle" })).body;
      expect((await api("POST", `/trackables/${van.id}/locations`, OUTSIDE)).status).toBe(201);
      const fence = await api("POST", "/geofences", { name: "Dock", ...CENTER, radius: 200, notificationType: "webhook", webhookUrl: receiver.url });
      expect(fence.status, fence.text).toBe(201);
      const s = await listen(cookie, "scope=deliveries");
      const pub = await openSse(`${server.baseUrl}/api/v1/stream`, { Authorization: `Bearer ${key}` });
      streams.push(pub);
      await pub.until(() => pub.retry !== null, 10_000, "the public stream's retry line");

      expect((await api("POST", `/trackables/${van.id}/locations`, CENTER)).status).toBe(201);
      await s.until(() => changes(s).includes("geofence.entry"), 10_000, "the entry event");
      await s.until(() => changes(s).includes("delivery"), 15_000, "a delivery notice");
      // Locations alone do not concern the deliveries page.
      expect(changes(s)).not.toContain("location.updated");
      await pub.until(() => pub.frames.some((f) => f.event === "geofence.entry"), 10_000, "the entry on the public stream");
      expect(pub.frames.map((f) => f.event).filter((t) => t === "delivery" || t === "trackable" || t === "geofence")).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
