import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer, type TestAccount } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { startReceiver } from "../support/receiver";

// End to end on the embedded runner: a real server (next start) with short retry delays, real local receivers that
// verify the signature, and real time.

const DELAYS = [300, 600, 900];
let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_RETRY_DELAYS: DELAYS.join(","),
      WEBHOOK_TIMEOUT_MS: "1000",
      DEVICE_OFFLINE_AFTER_S: "2",
      BATTERY_LOW_THRESHOLD: "20",
    },
  });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

const SECRET = "test_secret_0123456789";
const CENTER = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { latitude: 52.5201, longitude: 13.4051 };
const OUTSIDE = { latitude: 52.53, longitude: 13.405 };

async function setup(a: TestAccount, url: string, extra: Record<string, unknown> = {}) {
  const trackable = (await a.api("POST", "/trackables", { name: "Van 7", type: "vehicle" })).body;
  const geofence = await a.api("POST", "/geofences", {
    name: "Depot",
    ...CENTER,
    radius: 200,
    notificationType: "webhook",
    webhookUrl: url,
    webhookSecret: SECRET,
    ...extra,
  });
  expect(geofence.status, geofence.text).toBe(201);
  return { trackable, geofence: geofence.body };
}

async function waitForDelivery(a: TestAccount, query: string, predicate: (d: any) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await a.api("GET", `/webhook-deliveries?${query}`);
    const match = (res.body.data ?? []).find(predicate);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no matching delivery in ${timeoutMs} ms: ${res.text.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("geofence events", () => {
  it("entry then exit, signed, with the spec's payload", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const { trackable, geofence } = await setup(a, receiver.url);
      const t0 = "2026-11-22T08:00:00.000Z";
      expect((await a.api("POST", `/trackables/${trackable.id}/locations`, { ...OUTSIDE, timestamp: t0 })).status).toBe(201);
      expect((await a.api("POST", `/trackables/${trackable.id}/locations`, { ...INSIDE, accuracy: 8, timestamp: "2026-11-22T08:01:00.000Z" })).status).toBe(201);
      const [entry] = await receiver.waitFor(1);
      expect(entry!.signatureValid).toBe(true);
      expect(entry!.headers["x-service-event"]).toBe("geofence.entry");
      expect(entry!.headers["content-type"]).toBe("application/json");
      expect(entry!.headers["user-agent"]).toMatch(/^Fenceline-Webhooks\//);
      expect(entry!.json).toEqual({
        event: "geofence.entry",
        occurred_at: "2026-11-22T08:01:00.000Z",
        geofence: { id: geofence.id, name: "Depot", latitude: CENTER.latitude, longitude: CENTER.longitude, radius: 200 },
        beacon: { id: trackable.id, name: "Van 7", type: "vehicle" },
        location: { latitude: INSIDE.latitude, longitude: INSIDE.longitude, accuracy: 8, timestamp: "2026-11-22T08:01:00.000Z" },
      });
      expect(Object.keys(entry!.json)).toEqual(["event", "occurred_at", "geofence", "beacon", "location"]);
      await a.api("POST", `/trackables/${trackable.id}/locations`, { ...OUTSIDE, timestamp: "2026-11-22T08:02:00.000Z" });
      const [, exit] = await receiver.waitFor(2);
      expect(exit!.json.event).toBe("geofence.exit");
      expect(exit!.signatureValid).toBe(true);
      expect(exit!.headers["x-service-delivery"]).not.toBe(entry!.headers["x-service-delivery"]);
      const delivery = await waitForDelivery(a, `geofenceId=${geofence.id}&event=geofence.exit`, (d) => d.status === "succeeded");
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0].statusCode).toBe(200);
      // Deliveries are made from recorded events and name them.
      const event = await a.api("GET", `/events/${delivery.eventId}`);
      expect(event.body).toMatchObject({ type: "geofence.exit", geofenceId: geofence.id, trackableId: trackable.id, occurredAt: "2026-11-22T08:02:00.000Z", reason: "crossing" });
    } finally {
      await receiver.close();
    }
  });

  it("a batch that goes in and out emits entry then exit; a stale point emits nothing", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const { trackable } = await setup(a, receiver.url);
      await a.api("POST", `/trackables/${trackable.id}/locations`, {
        locations: [
          { ...OUTSIDE, timestamp: "2026-11-22T09:00:00.000Z" },
          { ...INSIDE, timestamp: "2026-11-22T09:00:02.000Z" },
          { ...OUTSIDE, timestamp: "2026-11-22T09:00:04.000Z" },
        ],
      });
      const got = await receiver.waitFor(2);
      // Deliveries run concurrently and may arrive in any order; occurred_at orders them (README: Receiving webhooks).
      const inOrder = [...got].sort((x, y) => x.json.occurred_at.localeCompare(y.json.occurred_at));
      expect(inOrder.map((r) => [r.json.event, r.json.occurred_at])).toEqual([
        ["geofence.entry", "2026-11-22T09:00:02.000Z"],
        ["geofence.exit", "2026-11-22T09:00:04.000Z"],
      ]);
      // Older than the newest evaluated point: stored, but changes nothing.
      await a.api("POST", `/trackables/${trackable.id}/locations`, { ...INSIDE, timestamp: "2026-11-22T08:59:00.000Z" });
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.received).toHaveLength(2);
      const history = await a.api("GET", `/trackables/${trackable.id}/locations`);
      expect(history.body.data).toHaveLength(4);
    } finally {
      await receiver.close();
    }
  });

  it("concurrent identical posts emit one entry", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const { trackable } = await setup(a, receiver.url);
      const body = { ...INSIDE, timestamp: "2026-11-22T10:00:00.000Z" };
      const results = await Promise.all(Array.from({ length: 10 }, () => a.api("POST", `/trackables/${trackable.id}/locations`, body)));
      expect(results.every((r) => r.status === 201)).toBe(true);
      await receiver.waitFor(1);
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.received.map((r) => r.json.event)).toEqual(["geofence.entry"]);
    } finally {
      await receiver.close();
    }
  });
});

describe("delivery and retries", () => {
  it("a receiver failing twice then succeeding: 3 attempts, one delivery id", async () => {
    const receiver = await startReceiver({ secret: SECRET, respond: (_r, n) => (n <= 2 ? { status: 500, body: `fail ${n}` } : { status: 200, body: "ok" }) });
    try {
      const a = await newAccount();
      const { trackable, geofence } = await setup(a, receiver.url);
      await a.api("POST", `/trackables/${trackable.id}/locations`, INSIDE);
      const got = await receiver.waitFor(3);
      expect(new Set(got.map((r) => r.headers["x-service-delivery"])).size).toBe(1);
      expect(got.every((r) => r.signatureValid)).toBe(true);
      expect(got.map((r) => r.body)).toEqual([got[0]!.body, got[0]!.body, got[0]!.body]);
      // The waits follow WEBHOOK_RETRY_DELAYS.
      expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(DELAYS[0]! - 50);
      expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(DELAYS[1]! - 50);
      const d = await waitForDelivery(a, `geofenceId=${geofence.id}`, (x) => x.status === "succeeded");
      expect(d.id).toBe(got[0]!.headers["x-service-delivery"]);
      expect(d.attempts.map((x: any) => x.statusCode)).toEqual([500, 500, 200]);
      expect(d.attempts[0].responseBody).toBe("fail 1");
      expect(d.nextAttemptAt).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it("a receiver always failing: 4 attempts, then failed, then silence", async () => {
    const receiver = await startReceiver({ respond: () => ({ status: 503, body: "x".repeat(10_000) }) });
    try {
      const a = await newAccount();
      const { trackable, geofence } = await setup(a, receiver.url);
      await a.api("POST", `/trackables/${trackable.id}/locations`, INSIDE);
      await receiver.waitFor(4);
      const d = await waitForDelivery(a, `geofenceId=${geofence.id}`, (x) => x.status === "failed");
      expect(d.attempts).toHaveLength(4);
      expect(d.attempts.map((x: any) => x.number)).toEqual([1, 2, 3, 4]);
      expect(Buffer.byteLength(d.attempts[0].responseBody)).toBe(4096);
      expect(d.nextAttemptAt).toBeNull();
      await new Promise((r) => setTimeout(r, DELAYS[2]! * 2));
      expect(receiver.received).toHaveLength(4);
      const failed = await a.api("GET", `/webhook-deliveries?status=failed&geofenceId=${geofence.id}`);
      expect(failed.body.data.map((x: any) => x.id)).toEqual([d.id]);
    } finally {
      await receiver.close();
    }
  });

  it("a receiver slower than WEBHOOK_TIMEOUT_MS is a timed-out attempt", async () => {
    const receiver = await startReceiver({ respond: (_r, n) => (n === 1 ? { status: 200, delayMs: 3000 } : { status: 200 }) });
    try {
      const a = await newAccount();
      const { trackable, geofence } = await setup(a, receiver.url);
      await a.api("POST", `/trackables/${trackable.id}/locations`, INSIDE);
      const d = await waitForDelivery(a, `geofenceId=${geofence.id}`, (x) => x.status === "succeeded");
      expect(d.attempts[0].statusCode).toBeNull();
      expect(d.attempts[0].error).toMatch(/Timed out after 1000 ms/);
      expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(900);
      expect(d.attempts[1].statusCode).toBe(200);
    } finally {
      await receiver.close();
    }
  });

  it("a redirect is a failure and is not followed", async () => {
    const target = await startReceiver();
    const receiver = await startReceiver({ respond: () => ({ status: 302, headers: { Location: target.url } }) });
    try {
      const a = await newAccount();
      const { geofence } = await setup(a, receiver.url);
      const res = await a.api("POST", `/geofences/${geofence.id}/test-webhook`, { eventType: "entry" });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/Check your endpoint configuration\.$/);
      expect(res.body.deliveryId).toBeUndefined();
      expect(receiver.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await target.close();
    }
  });
});

describe("test-webhook, redeliver and history", () => {
  it("test-webhook success: one signed attempt, recorded as a test", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const { geofence } = await setup(a, receiver.url);
      const res = await a.api("POST", `/geofences/${geofence.id}/test-webhook`, { eventType: "entry" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: "Test webhook sent for entry event", deliveryId: expect.any(String) });
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;
      expect(got.signatureValid).toBe(true);
      expect(got.json.event).toBe("geofence.entry");
      expect(got.json.geofence.id).toBe(geofence.id);
      expect(got.json.location).toMatchObject({ latitude: CENTER.latitude, longitude: CENTER.longitude });
      expect(got.headers["x-service-delivery"]).toBe(res.body.deliveryId);
      const d = await a.api("GET", `/webhook-deliveries/${res.body.deliveryId}`);
      expect(d.body).toMatchObject({ id: res.body.deliveryId, test: true, status: "succeeded", event: "geofence.entry" });
      expect(d.body.attempts).toHaveLength(1);
      const exit = await a.api("POST", `/geofences/${geofence.id}/test-webhook`, { eventType: "exit" });
      expect(exit.body.message).toBe("Test webhook sent for exit event");
      const empty = await a.api("POST", `/geofences/${geofence.id}/test-webhook`);
      expect(empty.body.message).toBe("Test webhook sent for entry event");
    } finally {
      await receiver.close();
    }
  });

  it("test-webhook failure: success false, no deliveryId, no retries", async () => {
    const receiver = await startReceiver({ respond: () => ({ status: 500 }) });
    try {
      const a = await newAccount();
      const { geofence } = await setup(a, receiver.url);
      const res = await a.api("POST", `/geofences/${geofence.id}/test-webhook`, {});
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/Check your endpoint configuration\.$/);
      expect(res.body).not.toHaveProperty("deliveryId");
      await new Promise((r) => setTimeout(r, DELAYS[0]! * 3));
      expect(receiver.received).toHaveLength(1);
      const list = await a.api("GET", `/webhook-deliveries?geofenceId=${geofence.id}`);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({ test: true, status: "failed" });
    } finally {
      await receiver.close();
    }
  });

  it("test-webhook validation: not a webhook geofence 400, bad eventType 400, unknown 404", async () => {
    const a = await newAccount();
    const g = (await a.api("POST", "/geofences", { name: "Plain", ...CENTER, radius: 100 })).body;
    const plain = await a.api("POST", `/geofences/${g.id}/test-webhook`, { eventType: "entry" });
    expect(plain.status).toBe(400);
    expect(plain.body.error.code).toBe("invalid_request");
    const bad = await a.api("POST", `/geofences/${g.id}/test-webhook`, { eventType: "dwell" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("eventType");
    expect((await a.api("POST", `/geofences/00000000-0000-4000-8000-000000000000/test-webhook`, {})).status).toBe(404);
  });

  it("redeliver sends the same payload as a new delivery (202)", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const { geofence } = await setup(a, receiver.url);
      const first = await a.api("POST", `/geofences/${geofence.id}/test-webhook`, {});
      const again = await a.api("POST", `/webhook-deliveries/${first.body.deliveryId}/redeliver`);
      expect(again.status).toBe(202);
      expect(again.body.id).not.toBe(first.body.deliveryId);
      expect(again.body.status).toBe("pending");
      const got = await receiver.waitFor(2);
      expect(got[1]!.body).toBe(got[0]!.body);
      expect(got[1]!.headers["x-service-delivery"]).toBe(again.body.id);
      expect(got[1]!.signatureValid).toBe(true);
      expect((await a.api("POST", `/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver`)).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it("delivery history is scoped to the account and validates its filters", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const receiver = await startReceiver();
    try {
      const { geofence } = await setup(a, receiver.url);
      const sent = await a.api("POST", `/geofences/${geofence.id}/test-webhook`, {});
      expect((await b.api("GET", `/webhook-deliveries/${sent.body.deliveryId}`)).status).toBe(404);
      expect((await b.api("POST", `/webhook-deliveries/${sent.body.deliveryId}/redeliver`)).status).toBe(404);
      expect((await b.api("GET", "/webhook-deliveries")).body.data).toEqual([]);
      for (const q of ["status=done", "event=geofence.enter", "geofenceId=nope", "limit=0"]) {
        const res = await a.api("GET", `/webhook-deliveries?${q}`);
        expect(res.status, q).toBe(400);
      }
    } finally {
      await receiver.close();
    }
  });
});

describe("plan gating", () => {
  it("every webhook feature is 403 plan_required on the free plan", async () => {
    const free = await newAccount({ plan: "free" });
    const g = (await free.api("POST", "/geofences", { name: "Free", ...CENTER, radius: 100 })).body;
    for (const [method, path] of [
      ["GET", "/webhook-deliveries"],
      ["GET", "/webhook-deliveries/00000000-0000-4000-8000-000000000000"],
      ["POST", "/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver"],
      ["POST", `/geofences/${g.id}/test-webhook`],
      ["GET", "/webhooks"],
      ["POST", "/webhooks"],
    ] as const) {
      const res = await free.api(method, path, method === "POST" ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe("plan_required");
    }
  });
});

describe("account webhooks", () => {
  it("geofence.dwell reaches the geofence's webhook and subscribed endpoints, with the entry's fields and dwell.seconds", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const hook = await a.api("POST", "/webhooks", { url: receiver.url, secret: SECRET, events: ["geofence.dwell"] });
      expect(hook.status, hook.text).toBe(201);
      const { trackable, geofence } = await setup(a, receiver.url, { dwellSeconds: 60 });
      await a.api("POST", `/trackables/${trackable.id}/locations`, {
        locations: [
          { ...INSIDE, timestamp: "2026-11-22T15:00:00.000Z" },
          { ...INSIDE, accuracy: 4, timestamp: "2026-11-22T15:01:05.500Z" },
        ],
      });
      // The geofence's own webhook gets entry and dwell; the account endpoint only dwell.
      const got = await receiver.waitFor(3);
      const dwells = got.filter((r) => r.json.event === "geofence.dwell");
      expect(dwells).toHaveLength(2);
      for (const d of dwells) {
        expect(d.signatureValid).toBe(true);
        expect(d.json).toEqual({
          event: "geofence.dwell",
          occurred_at: "2026-11-22T15:01:05.500Z",
          geofence: { id: geofence.id, name: "Depot", latitude: CENTER.latitude, longitude: CENTER.longitude, radius: 200 },
          beacon: { id: trackable.id, name: "Van 7", type: "vehicle" },
          location: { latitude: INSIDE.latitude, longitude: INSIDE.longitude, accuracy: 4, timestamp: "2026-11-22T15:01:05.500Z" },
          dwell: { seconds: 65 },
        });
      }
    } finally {
      await receiver.close();
    }
  });

  it("location.updated, battery.low and device.status_changed reach a subscribed endpoint", async () => {
    const receiver = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      const hook = await a.api("POST", "/webhooks", {
        url: receiver.url,
        secret: SECRET,
        events: ["location.updated", "battery.low", "device.status_changed"],
      });
      expect(hook.status, hook.text).toBe(201);
      const t = (await a.api("POST", "/trackables", { name: "Phone" })).body;
      await a.api("POST", `/trackables/${t.id}/locations`, {
        locations: [
          { ...OUTSIDE, battery: 50, timestamp: new Date(Date.now() - 2000).toISOString() },
          { ...OUTSIDE, battery: 15, timestamp: new Date(Date.now() - 1000).toISOString() },
        ],
      });
      const got = await receiver.waitFor(4);
      // Deliveries run concurrently: compare what arrived, not the order of arrival.
      const byEvent = (e: string) => got.filter((r) => r.json.event === e);
      expect(got.map((r) => r.json.event).sort()).toEqual(["battery.low", "device.status_changed", "location.updated", "location.updated"]);
      expect(got.every((r) => r.signatureValid)).toBe(true);
      expect(byEvent("device.status_changed")[0]!.json.status).toEqual({ previous: "offline", current: "online" });
      const low = byEvent("battery.low")[0]!.json;
      expect(low.battery).toEqual({ level: 15, threshold: 20 });
      expect(Object.keys(low)).toEqual(["event", "occurred_at", "beacon", "location", "battery"]);
      // DEVICE_OFFLINE_AFTER_S=2: the sweep marks it offline.
      const offline = await receiver.waitFor(5, 10_000);
      expect(offline[4]!.json).toMatchObject({ event: "device.status_changed", status: { previous: "online", current: "offline" } });
      const byWebhook = await a.api("GET", `/webhook-deliveries?webhookId=${hook.body.id}`);
      expect(byWebhook.body.data.length).toBe(5);
      // Every delivery but location.updated's names its recorded event; the offline transition is recorded too.
      for (const d of byWebhook.body.data) {
        if (d.event === "location.updated") expect(d.eventId).toBeNull();
        else expect((await a.api("GET", `/events/${d.eventId}`)).body.type, d.event).toBe(d.event);
      }
      const recorded = (await a.api("GET", `/events?trackableId=${t.id}`)).body.data;
      // Newest first: offline (the sweep), online (dated by receipt, after the points), battery.low (the point's time).
      expect(recorded.map((e: { type: string }) => e.type)).toEqual(["device.status_changed", "device.status_changed", "battery.low"]);
    } finally {
      await receiver.close();
    }
  });
});

describe("synthetic transitions", () => {
  async function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = await get();
      if (got !== undefined) return got;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  const withReason = (rx: { received: { json: Record<string, any> }[] }, reason: string, trackableId: string) => () =>
    rx.received.find((r) => r.json.reason === reason && r.json.beacon.id === trackableId)?.json;

  it("unassigning, reshaping, deleting a trackable and deleting a geofence emit exits (and a reshape entry) with a reason", async () => {
    const fenceRx = await startReceiver({ secret: SECRET });
    const accountRx = await startReceiver({ secret: SECRET });
    try {
      const a = await newAccount();
      expect((await a.api("POST", "/webhooks", { url: accountRx.url, secret: SECRET, events: ["geofence.entry", "geofence.exit"] })).status).toBe(201);
      const t1 = (await a.api("POST", "/trackables", { name: "One" })).body;
      const { trackable: t2, geofence } = await setup(a, fenceRx.url);
      for (const t of [t1, t2]) await a.api("POST", `/trackables/${t.id}/locations`, { ...INSIDE, accuracy: 7, timestamp: "2026-11-22T16:00:00.000Z" });
      await until("both entries", () => (fenceRx.received.length >= 2 && accountRx.received.length >= 2 ? true : undefined));
      // Real crossings keep exactly the spec's fields.
      expect(Object.keys(fenceRx.received[0]!.json)).toEqual(["event", "occurred_at", "geofence", "beacon", "location"]);

      // 1. Unassigned: t1 leaves at the moment of the change, at its last evaluated location.
      const before = Date.now();
      expect((await a.api("PATCH", `/geofences/${geofence.id}`, { trackableIds: [t2.id] })).status).toBe(200);
      for (const rx of [fenceRx, accountRx]) {
        const exit = await until("unassigned exit", withReason(rx, "unassigned", t1.id));
        expect(Object.keys(exit)).toEqual(["event", "occurred_at", "geofence", "beacon", "location", "reason"]);
        expect(exit).toMatchObject({ event: "geofence.exit", geofence: { id: geofence.id }, location: { ...INSIDE, accuracy: 7, timestamp: "2026-11-22T16:00:00.000Z" } });
        expect(Date.parse(exit.occurred_at)).toBeGreaterThanOrEqual(before - 1000);
      }
      expect(fenceRx.received.every((r) => r.signatureValid)).toBe(true);
      const [recorded] = (await a.api("GET", `/events?trackableId=${t1.id}&type=geofence.exit`)).body.data;
      expect(recorded).toMatchObject({ geofenceId: geofence.id, reason: "unassigned", confidence: null, durationSeconds: expect.any(Number) });
      expect((await a.api("GET", `/geofences/${geofence.id}`)).body.occupantCount).toBe(1);

      // 2. Reshaped away from t2: an exit; reshaped back over it: an entry, both "geofence_changed".
      expect((await a.api("PATCH", `/geofences/${geofence.id}`, { latitude: 10, longitude: 10 })).status).toBe(200);
      const moved = await until("reshape exit", withReason(fenceRx, "geofence_changed", t2.id));
      expect(moved).toMatchObject({ event: "geofence.exit", geofence: { latitude: 10, longitude: 10 } });
      const polygon = { type: "Polygon", coordinates: [[[13.40, 52.51], [13.41, 52.51], [13.41, 52.53], [13.40, 52.53], [13.40, 52.51]]] };
      expect((await a.api("PATCH", `/geofences/${geofence.id}`, { shape: "polygon", geometry: polygon })).status).toBe(200);
      await until("reshape entry", () => fenceRx.received.find((r) => r.json.reason === "geofence_changed" && r.json.event === "geofence.entry")?.json);
      expect((await a.api("GET", `/geofences/${geofence.id}/occupants`)).body.data.map((o: { trackableId: string }) => o.trackableId)).toEqual([t2.id]);
      // A rename is not a reshape: nothing more.
      const count = fenceRx.received.length;
      await a.api("PATCH", `/geofences/${geofence.id}`, { name: "Renamed" });

      // 3. The trackable is deleted: it leaves, and the event outlives it.
      expect((await a.api("DELETE", `/trackables/${t2.id}`)).status).toBe(204);
      const gone = await until("trackable_deleted exit", withReason(fenceRx, "trackable_deleted", t2.id));
      expect(gone).toMatchObject({ event: "geofence.exit", geofence: { id: geofence.id, name: "Renamed" }, beacon: { id: t2.id, name: "Van 7" } });
      expect(fenceRx.received.length).toBe(count + 1);
      const events = (await a.api("GET", `/events?trackableId=${t2.id}`)).body.data;
      expect(events.map((e: { type: string; reason: string }) => `${e.type}:${e.reason}`).slice(0, 3)).toEqual([
        "geofence.exit:trackable_deleted",
        "geofence.entry:geofence_changed",
        "geofence.exit:geofence_changed",
      ]);

      // 4. The geofence is deleted: who is inside leaves, delivered to the webhook it had at that moment.
      const t3 = (await a.api("POST", "/trackables", { name: "Three" })).body;
      await a.api("PATCH", `/geofences/${geofence.id}`, { trackableIds: null });
      await a.api("POST", `/trackables/${t3.id}/locations`, { ...INSIDE, timestamp: "2026-11-22T16:10:00.000Z" });
      await until("t3 entry", () => fenceRx.received.find((r) => r.json.event === "geofence.entry" && r.json.beacon.id === t3.id));
      expect((await a.api("DELETE", `/geofences/${geofence.id}`)).status).toBe(204);
      for (const rx of [fenceRx, accountRx]) {
        const exit = await until("geofence_deleted exit", withReason(rx, "geofence_deleted", t3.id));
        expect(exit).toMatchObject({ event: "geofence.exit", geofence: { id: geofence.id, name: "Renamed" } });
      }
      const [last] = (await a.api("GET", `/events?trackableId=${t3.id}&type=geofence.exit`)).body.data;
      expect(last).toMatchObject({ reason: "geofence_deleted", geofenceId: geofence.id });
      const delivery = (await a.api("GET", `/webhook-deliveries?trackableId=${t3.id}&event=geofence.exit`)).body.data[0];
      expect(delivery.eventId).toBe(last.id);
    } finally {
      await fenceRx.close();
      await accountRx.close();
    }
  });

  it("on the free plan they are recorded, and nothing is sent", async () => {
    const a = await newAccount({ plan: "free" });
    const t = (await a.api("POST", "/trackables", { name: "Free" })).body;
    const g = (await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200 })).body;
    await a.api("POST", `/trackables/${t.id}/locations`, { ...INSIDE, timestamp: "2026-11-22T17:00:00.000Z" });
    await until("entry", async () => ((await a.api("GET", `/geofences/${g.id}`)).body.occupantCount === 1 ? true : undefined));
    expect((await a.api("DELETE", `/geofences/${g.id}`)).status).toBe(204);
    const events = (await a.api("GET", `/events?trackableId=${t.id}&type=geofence.exit`)).body.data;
    expect(events).toMatchObject([{ reason: "geofence_deleted", geofenceId: g.id }]);
  });
});
