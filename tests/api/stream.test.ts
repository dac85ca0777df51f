import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, request, useServer, type TestAccount } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { openSse, type SseStream } from "../support/sse";

// The live event stream on a real server (the built app on the embedded database): frames as a client reads them
// with eventsource-parser, resumes across a disconnection, the limits and the credentials.

const MAX_PER_KEY = 3;
const KEEPALIVE_MS = 400;
let server: TestServer;
const streams: SseStream[] = [];

beforeAll(async () => {
  server = await startServer({ env: { STREAM_MAX_PER_KEY: String(MAX_PER_KEY), STREAM_KEEPALIVE_MS: String(KEEPALIVE_MS) } });
  useServer(server);
});
afterAll(async () => {
  for (const s of streams) s.close();
  useServer(null);
  await server?.stop();
});

const CENTER = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { latitude: 52.5201, longitude: 13.4051 };
const OUTSIDE = { latitude: 52.53, longitude: 13.405 };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 8, minute)).toISOString();

/** A stream request; its reply may be an error (see open). */
async function tryOpen(a: { key: string } | null, query = "", headers: Record<string, string> = {}): Promise<SseStream> {
  const s = await openSse(`${server.baseUrl}/api/v1/stream${query}`, { ...(a ? { Authorization: `Bearer ${a.key}` } : {}), ...headers });
  streams.push(s);
  if (s.status === 200) await s.until(() => s.retry !== null, 10_000, "the retry line");
  return s;
}

/** An open stream (200). */
async function open(a: { key: string } | null, query = "", headers: Record<string, string> = {}): Promise<SseStream> {
  const s = await tryOpen(a, query, headers);
  expect(s.status, JSON.stringify(s.error)).toBe(200);
  return s;
}

/** Waits until the account's events log holds `n` geofence events (evaluation runs after the post is answered). */
async function settled(a: TestAccount, n: number) {
  const count = async () => ((await a.api("GET", "/events?limit=100")).body.data as Array<{ type: string }>).filter((e) => e.type.startsWith("geofence.")).length;
  await expect.poll(count, { timeout: 10_000 }).toBe(n);
}

async function setup(a: TestAccount) {
  const trackable = (await a.api("POST", "/trackables", { name: "Van 7", type: "vehicle" })).body;
  const geofence = await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200 });
  expect(geofence.status, geofence.text).toBe(201);
  return { trackable, geofence: geofence.body };
}

async function post(a: TestAccount, trackableId: string, point: { latitude: number; longitude: number }, minute: number) {
  const res = await a.api("POST", `/trackables/${trackableId}/locations`, { ...point, accuracy: 8, timestamp: at(minute) });
  expect(res.status, res.text).toBe(201);
}

const recorded = (s: SseStream) => s.frames.filter((f) => f.event!.startsWith("geofence."));
const dataOf = (f: { data: string }) => JSON.parse(f.data);

describe("GET /api/v1/stream", () => {
  it("sends retry first, then each event as id/event/data: the webhook payload plus its id, uncompressed", async () => {
    const a = await newAccount();
    const { trackable, geofence } = await setup(a);
    const s = await open(a, "", { "Accept-Encoding": "gzip, br" });
    expect(s.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(s.headers.get("content-encoding")).toBeNull();
    // An authenticated reply: the key's rate-limit headers, as on every other route.
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(s.headers.get(name), name).toMatch(/^\d+$/);
    expect(s.raw.startsWith("retry: 2000\n\n")).toBe(true);
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    await s.until(() => recorded(s).length >= 1, 10_000, "the entry");
    await s.until(() => s.frames.filter((f) => f.event === "location.updated").length >= 2, 10_000, "two location frames");
    const entry = recorded(s)[0]!;
    expect(entry.event).toBe("geofence.entry");
    const events = (await a.api("GET", "/events?type=geofence.entry")).body.data;
    expect(events).toHaveLength(1);
    expect(dataOf(entry)).toEqual({
      event: "geofence.entry",
      occurred_at: at(1),
      geofence: { id: geofence.id, name: "Depot", latitude: CENTER.latitude, longitude: CENTER.longitude, radius: 200 },
      beacon: { id: trackable.id, name: "Van 7", type: "vehicle" },
      location: { latitude: INSIDE.latitude, longitude: INSIDE.longitude, accuracy: 8, timestamp: at(1) },
      id: events[0].id,
    });
    // The id is the events log's cursor of that event.
    expect(JSON.parse(Buffer.from(entry.id!, "base64url").toString())).toEqual({ occurredAt: at(1), id: events[0].id });
    const located = s.frames.filter((f) => f.event === "location.updated").map(dataOf);
    expect(located[1]).toEqual({
      event: "location.updated",
      occurred_at: at(1),
      beacon: { id: trackable.id, name: "Van 7", type: "vehicle" },
      location: { latitude: INSIDE.latitude, longitude: INSIDE.longitude, accuracy: 8, timestamp: at(1) },
      id: null,
    });
  });

  it("filters by types, trackableIds and geofenceIds", async () => {
    const a = await newAccount();
    const { trackable, geofence } = await setup(a);
    const other = (await a.api("POST", "/trackables", { name: "Van 8", type: "vehicle" })).body;
    const all = await open(a);
    const entries = await open(a, "?types=geofence.entry,geofence.exit");
    const ofOther = await open({ key: await a.newKey() }, `?trackableIds=${other.id}&types=location.updated`);
    const ofFence = await open({ key: await a.newKey() }, `?geofenceIds=${geofence.id.toUpperCase()}`);
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    await post(a, other.id, OUTSIDE, 0);
    await all.until(() => all.frames.length >= 6, 10_000, "six frames");
    await entries.waitFor(1);
    await ofOther.waitFor(1);
    await ofFence.waitFor(1);
    // What the other streams would have had by now has reached the unfiltered one.
    await all.until(() => all.frames.filter((f) => f.event === "location.updated").length === 3);
    expect(entries.frames.map((f) => f.event)).toEqual(["geofence.entry"]);
    expect(ofOther.frames.map((f) => [f.event, dataOf(f).beacon.id])).toEqual([["location.updated", other.id]]);
    expect(ofFence.frames.map((f) => f.event)).toEqual(["geofence.entry"]);
    for (const s of [all, entries, ofOther, ofFence]) s.close();
  });

  it("refuses bad filters and cursors with 400", async () => {
    const a = await newAccount();
    const bad = await tryOpen(a, "?types=geofence.entry,nope&trackableIds=x");
    expect(bad.status).toBe(400);
    expect(bad.error.error.code).toBe("invalid_request");
    expect(bad.error.error.message).toMatch(/types.*"nope"/);
    expect(bad.error.error.message).toMatch(/trackableIds.*"x"/);
    const cursor = await tryOpen(a, "?after=garbage");
    expect(cursor.status).toBe(400);
  });

  it("resumes with Last-Event-ID: what happened while disconnected, in order and once, then live without a gap", async () => {
    const a = await newAccount();
    const { trackable } = await setup(a);
    const first = await open(a, "?types=geofence.entry,geofence.exit");
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    const entry = (await first.waitFor(1))[0]!;
    first.close();
    // While disconnected: an exit and an entry.
    await post(a, trackable.id, OUTSIDE, 2);
    await post(a, trackable.id, INSIDE, 3);
    await settled(a, 3);
    const missed = ((await a.api("GET", "/events?limit=100")).body.data as Array<{ id: string; type: string }>).filter(
      (e) => e.type.startsWith("geofence.") && e.id !== dataOf(entry).id,
    );

    const resumed = await open(a, "?types=geofence.entry,geofence.exit", { "Last-Event-ID": entry.id! });
    const replayed = await resumed.waitFor(2);
    expect(replayed.map((f) => dataOf(f).id).sort()).toEqual(missed.map((e) => e.id).sort());
    expect(replayed.map((f) => f.event)).toEqual(["geofence.exit", "geofence.entry"]);
    // Live continues after the replay: the next exit comes once, and nothing before it twice.
    await post(a, trackable.id, OUTSIDE, 4);
    await resumed.waitFor(3);
    await post(a, trackable.id, INSIDE, 5);
    await resumed.waitFor(4);
    const ids = resumed.frames.map((f) => dataOf(f).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(resumed.frames.map((f) => f.event)).toEqual(["geofence.exit", "geofence.entry", "geofence.exit", "geofence.entry"]);

    // ?after= does the same as the header.
    const again = await open(a, `?types=geofence.exit&after=${encodeURIComponent(entry.id!)}`);
    await again.waitFor(2);
    expect(again.frames.map((f) => f.event)).toEqual(["geofence.exit", "geofence.exit"]);
    for (const s of [resumed, again]) s.close();
  });

  it("replays a stream's events while new ones are being made, each exactly once", async () => {
    const a = await newAccount();
    const { trackable } = await setup(a);
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    await settled(a, 1);
    const first = await open(a, "?types=geofence.entry,geofence.exit");
    await post(a, trackable.id, OUTSIDE, 2);
    const [exit] = await first.waitFor(1);
    first.close();
    for (let m = 3; m < 13; m++) await post(a, trackable.id, m % 2 ? INSIDE : OUTSIDE, m);
    // Reconnect while more events are being made: they fall on both sides of the switch from replay to live.
    const resumed = await open(a, "?types=geofence.entry,geofence.exit", { "Last-Event-ID": exit!.id! });
    for (let m = 13; m < 23; m++) await post(a, trackable.id, m % 2 ? INSIDE : OUTSIDE, m);
    await resumed.waitFor(20, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    const times = resumed.frames.map((f) => dataOf(f).occurred_at);
    expect(times).toEqual(Array.from({ length: 20 }, (_, i) => at(i + 3)));
    resumed.close();
  });

  it("410 cursor_expired for a cursor older than the events log", async () => {
    const a = await newAccount();
    const { trackable } = await setup(a);
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    await settled(a, 1);
    // A time-ordered id of 2001: before every event the account still has.
    const old = Buffer.from(JSON.stringify({ occurredAt: "2001-01-01T00:00:00.000Z", id: "00e6b8a0-0000-7000-8000-000000000000" })).toString("base64url");
    const s = await tryOpen(a, "", { "Last-Event-ID": old });
    expect(s.status).toBe(410);
    expect(s.error.error.code).toBe("cursor_expired");
  });

  it("429 beyond STREAM_MAX_PER_KEY open streams of a key; a closed one frees its place", async () => {
    const a = await newAccount();
    const opened = [];
    for (let i = 0; i < MAX_PER_KEY; i++) opened.push(await open(a));
    const refused = await tryOpen(a);
    expect(refused.status).toBe(429);
    expect(refused.error.error.code).toBe("rate_limit_exceeded");
    // Another key of the same account has its own budget.
    expect((await open({ key: await a.newKey() })).status).toBe(200);
    opened[0]!.close();
    await expect.poll(async () => {
      const s = await tryOpen(a);
      s.close();
      return s.status;
    }, { timeout: 5_000 }).toBe(200);
    for (const s of opened) s.close();
  });

  it("sends a keep-alive comment at the configured interval", async () => {
    const a = await newAccount();
    const s = await open(a);
    await s.until(() => s.comments.filter((c) => c.trim() === "keepalive").length >= 2, 5_000, "two keep-alives");
    s.close();
  });

  it("disconnects a reader that does not read once a mebibyte is buffered for it", async () => {
    const a = await newAccount();
    const trackable = (await a.api("POST", "/trackables", { name: "N".repeat(100), type: "vehicle" })).body;
    const url = new URL(server.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(`GET /api/v1/stream HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${a.key}\r\nAccept: text/event-stream\r\n\r\n`);
    let received = 0;
    let ended = false;
    const first = new Promise<void>((resolve) => socket.once("data", (c: Buffer) => {
      received += c.length;
      resolve();
    }));
    await first;
    socket.pause();
    socket.once("end", () => (ended = true));
    socket.once("close", () => (ended = true));
    // ~9 MB of frames (far beyond what the kernel's socket buffers take) while the reader reads nothing.
    const points = (batch: number) =>
      Array.from({ length: 1000 }, (_, i) => ({ latitude: 10 + (batch * 1000 + i) / 1e6, longitude: 10, timestamp: new Date(Date.UTC(2026, 0, 1) + (batch * 1000 + i) * 1000).toISOString() }));
    for (let b = 0; b < 20; b++) {
      const res = await a.api("POST", `/trackables/${trackable.id}/locations`, { locations: points(b) });
      expect(res.status, res.text).toBe(201);
    }
    // Reading again: what the server had handed to the kernel, then the end (not an endless stream).
    socket.on("data", (c: Buffer) => (received += c.length));
    socket.resume();
    await expect.poll(() => ended, { timeout: 15_000 }).toBe(true);
    expect(received).toBeLessThan(20 * 1000 * 400);
    socket.destroy();
    // Its place is free again, and a new stream works.
    const s = await open(a);
    expect(s.status).toBe(200);
    s.close();
  }, 120_000);

  it("a key sees only its own account's events", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const { trackable } = await setup(a);
    const sb = await open(b);
    const sbFiltered = await open(b, `?trackableIds=${trackable.id}`);
    const sa = await open(a);
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    await sa.until(() => recorded(sa).length >= 1, 10_000, "the entry");
    await new Promise((r) => setTimeout(r, 500));
    expect(sb.frames).toEqual([]);
    expect(sbFiltered.frames).toEqual([]);
    // A's cursor means nothing to B: a resume from it is 410 (not A's events).
    const foreign = await tryOpen(b, "", { "Last-Event-ID": recorded(sa)[0]!.id! });
    expect(foreign.status).toBe(410);
    for (const s of [sa, sb, sbFiltered]) s.close();
  });

  it("401 without a key", async () => {
    const s = await tryOpen(null);
    expect(s.status).toBe(401);
    expect(s.error.error.code).toBe("unauthorized");
  });
});

describe("shutdown", () => {
  it("a server that is stopped (SIGTERM) ends its streams cleanly: the reply is finished, not cut", async () => {
    const own = await startServer();
    try {
      useServer(own);
      const a = await newAccount();
      const s = await openSse(`${own.baseUrl}/api/v1/stream`, { Authorization: `Bearer ${a.key}` });
      expect(s.status).toBe(200);
      await s.until(() => s.retry !== null);
      const stopping = own.stop();
      await s.until(() => s.ended, 5_000, "the end of the reply");
      expect(s.aborted).toBe(false);
      await stopping;
    } finally {
      useServer(server);
      await own.stop();
    }
  }, 120_000);
});

describe("stream tokens", () => {
  it("POST /stream-tokens → 201 {token, expiresAt}; the token opens a stream of the key's account", async () => {
    const a = await newAccount();
    const { trackable } = await setup(a);
    const before = Date.now();
    const res = await a.api("POST", "/stream-tokens", { expiresIn: 120 });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "token"]);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 120_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 120_000);
    const s = await open(null, `?access_token=${res.body.token}&types=geofence.entry`);
    expect(s.status).toBe(200);
    await post(a, trackable.id, OUTSIDE, 0);
    await post(a, trackable.id, INSIDE, 1);
    const [entry] = await s.waitFor(1);
    expect(entry!.event).toBe("geofence.entry");
    s.close();
    // Default lifetime: 300 s; an empty body is fine.
    const dflt = await request("POST", "/api/v1/stream-tokens", { key: a.key });
    expect(dflt.status).toBe(201);
    expect(Date.parse(dflt.body.expiresAt) - Date.now()).toBeGreaterThan(290_000);
  });

  it("a stream token is refused by every other route", async () => {
    const a = await newAccount();
    const { token } = (await a.api("POST", "/stream-tokens", {})).body;
    for (const [method, path] of [["GET", "/api/v1/trackables"], ["GET", "/api/v1/events"], ["POST", "/api/v1/stream-tokens"]] as const) {
      const res = await request(method, path, { key: token, body: method === "POST" ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.message).toMatch(/stream token/);
    }
    const viaQuery = await request("GET", `/api/v1/trackables?access_token=${token}`);
    expect(viaQuery.status).toBe(401);
  });

  it("refuses a bad lifetime, a forged or altered token, and a token of a revoked key", async () => {
    const a = await newAccount();
    for (const expiresIn of [59, 3601, 1.5, "300"]) {
      const res = await a.api("POST", "/stream-tokens", { expiresIn });
      expect(res.status, String(expiresIn)).toBe(400);
      expect(res.body.error.message).toMatch(/expiresIn/);
    }
    const { token } = (await a.api("POST", "/stream-tokens", {})).body;
    const altered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    expect((await tryOpen(null, `?access_token=${altered}`)).status).toBe(401);
    expect((await tryOpen(null, "?access_token=flst_nonsense")).status).toBe(401);
    await a.revoke();
    expect((await tryOpen(null, `?access_token=${token}`)).status).toBe(401);
  });
});
