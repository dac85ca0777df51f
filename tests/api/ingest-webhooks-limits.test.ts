import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer, type TestAccount } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { startReceiver } from "../support/receiver";
import { basicAuth, expectError, newDevice, send, storedLocations } from "../support/devices";
import { awayFromWindowEdge } from "../support/window-edge";

// Device points drive geofence events like API points do, and each token has its own request budget. A server of its
// own: webhooks to the local receiver (WEBHOOK_ALLOW_PRIVATE_URLS) and a small DEVICE_RATE_LIMIT_PER_MINUTE.

const LIMIT = 5;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_TIMEOUT_MS: "2000", DEVICE_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

const SECRET = "device_points_secret_0123";
const CENTER = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { lat: 52.5201, lon: 13.4051 };
const OUTSIDE = { lat: 52.53, lon: 13.405 };

/** How each app posts one point (its own request shape), for the same position and time. */
const apps: Record<string, (token: string, p: { lat: number; lon: number }, at: Date) => Promise<{ status: number }>> = {
  owntracks: (token, p, at) =>
    send("POST", "/ingest/owntracks", {
      headers: { "Content-Type": "application/json; charset=utf-8", Authorization: basicAuth("jane", token) },
      body: JSON.stringify({ _type: "location", lat: p.lat, lon: p.lon, tst: Math.floor(at.getTime() / 1000), acc: 8, tid: "ph" }),
    }),
  traccar: (token, p, at) => send("POST", `/ingest/traccar?id=${token}&timestamp=${Math.floor(at.getTime() / 1000)}&lat=${p.lat}&lon=${p.lon}&accuracy=8.0`),
  overland: (token, p, at) =>
    send("POST", "/ingest/overland", {
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        locations: [{ type: "Feature", geometry: { type: "Point", coordinates: [p.lon, p.lat] }, properties: { timestamp: at.toISOString(), horizontal_accuracy: 8 } }],
      }),
    }),
};

async function geofence(a: TestAccount, url: string) {
  const res = await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200, notificationType: "webhook", webhookUrl: url, webhookSecret: SECRET });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("device points drive geofence webhooks", () => {
  for (const app of Object.keys(apps)) {
    it(`${app}: outside → inside → outside emits a signed entry, then an exit, with the device's point`, async () => {
      const receiver = await startReceiver({ secret: SECRET });
      try {
        const { account, trackableId, token } = await newDevice({ account: await newAccount(), name: `Phone (${app})` });
        const fence = await geofence(account, receiver.url);
        const t0 = Date.now() - 3 * 60_000;
        const at = (i: number) => new Date(Math.floor(t0 / 1000) * 1000 + i * 60_000);
        for (const [i, p] of [OUTSIDE, INSIDE, OUTSIDE].entries()) expect((await apps[app]!(token, p, at(i))).status).toBe(200);
        // Deliveries run concurrently and may arrive in either order: ordered by occurred_at, as the README says.
        const [entry, exit] = [...(await receiver.waitFor(2))].sort((x, y) => x.json.occurred_at.localeCompare(y.json.occurred_at));
        for (const r of [entry!, exit!]) expect(r.signatureValid).toBe(true);
        expect(entry!.json).toEqual({
          event: "geofence.entry",
          occurred_at: at(1).toISOString(),
          geofence: { id: fence.id, name: "Depot", ...CENTER, radius: 200 },
          beacon: { id: trackableId, name: `Phone (${app})`, type: "person" },
          location: { latitude: INSIDE.lat, longitude: INSIDE.lon, accuracy: 8, timestamp: at(1).toISOString() },
        });
        expect(exit!.json).toMatchObject({ event: "geofence.exit", occurred_at: at(2).toISOString() });
        expect((await storedLocations(account, trackableId)).map((l) => l.source)).toEqual([app, app, app]);
        // A resend of the entry point changes nothing: no second entry.
        expect((await apps[app]!(token, INSIDE, at(1))).status).toBe(200);
        await new Promise((r) => setTimeout(r, 1500));
        expect(receiver.received).toHaveLength(2);
      } finally {
        await receiver.close();
      }
    });
  }
});

describe("DEVICE_RATE_LIMIT_PER_MINUTE", () => {
  it(`the ${LIMIT + 1}th request of a token in a minute is 429 with Retry-After, stores nothing; other tokens are unaffected`, async () => {
    const { account, trackableId, token } = await newDevice();
    // The budget is counted exactly only when the requests fall in one of the limiter's minute windows.
    await awayFromWindowEdge(15_000);
    const t = Math.floor(Date.now() / 1000) - 100;
    const post = (tok: string, i: number) => send("GET", `/ingest/traccar?id=${tok}&timestamp=${t + i}&lat=48.1&lon=11.5`);
    for (let i = 0; i < LIMIT; i++) {
      const ok = await post(token, i);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      expect(ok.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1 - i));
    }
    const refused = await post(token, 99);
    expectError(refused, 429, "rate_limit_exceeded");
    expect(refused.json.error.message).toContain(`${LIMIT} requests per minute per device token`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await storedLocations(account, trackableId)).toHaveLength(LIMIT);

    // Another token of the same trackable has its own budget, and so do the account's API keys.
    const second = await account.api("POST", `/trackables/${trackableId}/device-tokens`, {});
    expect((await post(second.body.token, 100)).status).toBe(200);
    expect((await account.api("GET", `/trackables/${trackableId}`)).status).toBe(200);
  });

  it("exact under concurrency: of 12 simultaneous requests on a fresh token, exactly the limit pass", async () => {
    const { token } = await newDevice();
    await awayFromWindowEdge(15_000);
    const t = Math.floor(Date.now() / 1000) - 100;
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send("GET", `/ingest/traccar?id=${token}&timestamp=${t + i}&lat=48.1&lon=11.5`)),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - LIMIT);
  });
});
