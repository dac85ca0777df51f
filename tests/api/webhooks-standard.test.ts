import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";
import { startServer, type TestServer } from "../harness/server";
import { startReceiver, verifyStandard, type Received } from "../support/receiver";

// Standard Webhooks signatures, secret rotation, an account endpoint's test and recovery, end to end: a real server
// with short retry delays and real receivers that verify with the standardwebhooks library.

const DELAYS = [200, 200, 200];
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_DELAYS: DELAYS.join(","), WEBHOOK_TIMEOUT_MS: "1000" } });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

const CENTER = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { latitude: 52.5201, longitude: 13.4051 };
const WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RAW = "a plain secret, ünïcode too";

const hookOf = async (o: TestAccount) => (await o.api("POST", "/webhooks", { url: "https://example.com/h", events: ["location.updated"] })).body.id as string;
const fenceOf = async (o: TestAccount) => (await o.api("POST", "/geofences", { name: "F", ...CENTER, radius: 100 })).body.id as string;
securitySuite("POST /webhooks/{id}/rotate-secret", { method: "POST", path: async (o) => `/webhooks/${await hookOf(o)}/rotate-secret`, body: {} });
securitySuite("POST /geofences/{id}/rotate-secret", { method: "POST", path: async (o) => `/geofences/${await fenceOf(o)}/rotate-secret`, body: {} });
securitySuite("POST /webhooks/{id}/recover", { method: "POST", path: async (o) => `/webhooks/${await hookOf(o)}/recover`, body: { since: "2026-01-01T00:00:00Z" } });
securitySuite("POST /geofences/{id}/recover", { method: "POST", path: async (o) => `/geofences/${await fenceOf(o)}/recover`, body: { since: "2026-01-01T00:00:00Z" } });
securitySuite("POST /webhooks/{id}/test", { method: "POST", path: async (o) => `/webhooks/${await hookOf(o)}/test`, body: { event: "battery.low" } });

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

const libraryAccepts = (r: Received, secret: string, raw = false) => {
  const wh = raw ? new Webhook(Buffer.from(secret, "utf8"), { format: "raw" }) : new Webhook(secret);
  try {
    wh.verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe("Standard Webhooks headers", () => {
  it("every attempt carries webhook-id (the delivery id), its own webhook-timestamp and a signature the library verifies", async () => {
    const receiver = await startReceiver({ secret: WHSEC, respond: (_r, n) => ({ status: n === 1 ? 500 : 200 }) });
    try {
      const a = await newAccount();
      const t = (await a.api("POST", "/trackables", { name: "Van" })).body;
      const g = await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: WHSEC });
      const before = Math.floor(Date.now() / 1000);
      await a.api("POST", `/trackables/${t.id}/locations`, INSIDE);
      const got = await receiver.waitFor(2);
      for (const r of got) {
        expect(r.headers["webhook-id"]).toBe(r.headers["x-service-delivery"]);
        expect(Number(r.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(before);
        expect(Number(r.headers["webhook-timestamp"])).toBeLessThanOrEqual(Math.ceil(r.at / 1000));
        expect(r.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(r.standardValid).toBe(true);
        expect(libraryAccepts(r, WHSEC)).toBe(true);
        // The X-Service-Signature of v1 is unchanged beside it.
        expect(r.signatureValid).toBe(true);
      }
      expect(got[1]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]);
      await waitForDelivery(a, `geofenceId=${g.body.id}`, (d) => d.status === "succeeded");
      // A changed body, or another secret, is refused by the library.
      expect(libraryAccepts({ ...got[0]!, body: got[0]!.body.replace("Depot", "Dep0t") }, WHSEC)).toBe(false);
      expect(libraryAccepts(got[0]!, "whsec_" + Buffer.alloc(32, 7).toString("base64"))).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it("a secret that is not whsec_<base64> is verified with the library's raw-key option", async () => {
    const receiver = await startReceiver({ secret: RAW });
    try {
      const a = await newAccount();
      const hook = await a.api("POST", "/webhooks", { url: receiver.url, secret: RAW, events: ["battery.low"] });
      const res = await a.api("POST", `/webhooks/${hook.body.id}/test`, { event: "battery.low" });
      expect(res.body.success).toBe(true);
      const r = receiver.received[0]!;
      expect(libraryAccepts(r, RAW, true)).toBe(true);
      expect(r.standardValid).toBe(true);
      expect(libraryAccepts(r, "whsec_" + Buffer.from(RAW).toString("base64"))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("without a secret: webhook-id and webhook-timestamp, no signature headers", async () => {
    const receiver = await startReceiver();
    try {
      const a = await newAccount();
      const hook = await a.api("POST", "/webhooks", { url: receiver.url, events: ["location.updated"] });
      await a.api("POST", `/webhooks/${hook.body.id}/test`, {});
      const r = receiver.received[0]!;
      expect(r.headers["webhook-id"]).toBe(r.headers["x-service-delivery"]);
      expect(r.headers["webhook-timestamp"]).toMatch(/^\d+$/);
      expect(r.headers["webhook-signature"]).toBeUndefined();
      expect(r.headers["x-service-signature"]).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });
});

describe("secret rotation", () => {
  it("an account endpoint: both secrets verify during the overlap, only the new one after; X-Service-Signature uses the new one", async () => {
    const receiver = await startReceiver();
    try {
      const a = await newAccount();
      const hook = (await a.api("POST", "/webhooks", { url: receiver.url, secret: WHSEC, events: ["location.updated"] })).body;
      const rotated = await a.api("POST", `/webhooks/${hook.id}/rotate-secret`, {});
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.secret as string;
      expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const expires = Date.parse(rotated.body.previousSecretExpiresAt);
      expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(60_000);
      expect((await a.api("GET", `/webhooks/${hook.id}`)).text).not.toContain(fresh);

      await a.api("POST", `/webhooks/${hook.id}/test`, {});
      const during = receiver.received[0]!;
      expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      expect(libraryAccepts(during, WHSEC)).toBe(true);
      expect(libraryAccepts(during, fresh)).toBe(true);
      expect(verifyStandard(during, fresh) && !verifyStandard({ ...during, body: during.body + " " }, fresh)).toBe(true);
      const { signPayload } = await import("@/lib/webhooks/signature");
      expect(during.headers["x-service-signature"]).toBe(signPayload(during.body, fresh));

      // A rotation to a given secret whose previous one stops at once: one signature, by the new secret.
      const again = await a.api("POST", `/webhooks/${hook.id}/rotate-secret`, { secret: RAW, expireCurrentIn: 0 });
      expect(again.body).toEqual({ secret: RAW, previousSecretExpiresAt: null });
      await a.api("POST", `/webhooks/${hook.id}/test`, {});
      const after = receiver.received[1]!;
      expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
      expect(libraryAccepts(after, RAW, true)).toBe(true);
      expect(libraryAccepts(after, fresh)).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it("a geofence: the previous secret stops signing once its overlap has expired", async () => {
    const receiver = await startReceiver();
    try {
      const a = await newAccount();
      const g = (await a.api("POST", "/geofences", { name: "Yard", ...CENTER, radius: 100, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: WHSEC })).body;
      const rotated = await a.api("POST", `/geofences/${g.id}/rotate-secret`, { expireCurrentIn: 2 });
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.secret as string;
      await a.api("POST", `/geofences/${g.id}/test-webhook`, {});
      expect(libraryAccepts(receiver.received[0]!, WHSEC)).toBe(true);
      expect(libraryAccepts(receiver.received[0]!, fresh)).toBe(true);
      await new Promise((r) => setTimeout(r, Date.parse(rotated.body.previousSecretExpiresAt) - Date.now() + 100));
      await a.api("POST", `/geofences/${g.id}/test-webhook`, {});
      expect(libraryAccepts(receiver.received[1]!, fresh)).toBe(true);
      expect(libraryAccepts(receiver.received[1]!, WHSEC)).toBe(false);
      expect(String(receiver.received[1]!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("a PATCHed secret replaces the current one at once (no overlap)", async () => {
    const receiver = await startReceiver();
    try {
      const a = await newAccount();
      const hook = (await a.api("POST", "/webhooks", { url: receiver.url, secret: WHSEC, events: ["location.updated"] })).body;
      await a.api("POST", `/webhooks/${hook.id}/rotate-secret`, { secret: "second-secret-123" });
      await a.api("PATCH", `/webhooks/${hook.id}`, { secret: RAW });
      await a.api("POST", `/webhooks/${hook.id}/test`, {});
      expect(String(receiver.received[0]!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
      expect(libraryAccepts(receiver.received[0]!, RAW, true)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("validates its body; another account's target is 404", async () => {
    const a = await newAccount();
    const hook = await hookOf(a);
    for (const [body, field] of [
      [{ expireCurrentIn: -1 }, "expireCurrentIn"],
      [{ expireCurrentIn: 604_801 }, "expireCurrentIn"],
      [{ expireCurrentIn: 1.5 }, "expireCurrentIn"],
      [{ secret: "short" }, "secret"],
      [{ bogus: true }, "bogus"],
    ] as const) {
      const res = await a.api("POST", `/webhooks/${hook}/rotate-secret`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    // Rotating an endpoint that had no secret sets one, with nothing to overlap.
    const first = await a.api("POST", `/webhooks/${hook}/rotate-secret`);
    expect(first.body).toEqual({ secret: expect.stringMatching(/^whsec_/), previousSecretExpiresAt: null });
    expect((await a.api("GET", `/webhooks/${hook}`)).body.secretSet).toBe(true);
    const free = await newAccount({ plan: "free" });
    expect((await free.api("POST", `/geofences/${await fenceOf(free)}/rotate-secret`, {})).status).toBe(403);
  });
});

describe("whsec_ secrets", () => {
  it("one whose rest is not canonical padded base64 is refused on every door, with a 400 naming the field", async () => {
    const a = await newAccount();
    const hook = await hookOf(a);
    const fence = await fenceOf(a);
    const bad = "whsec_test_0123456789";
    for (const [method, path, body, field] of [
      ["POST", "/geofences", { name: "G", ...CENTER, radius: 100, webhookSecret: bad }, "webhookSecret"],
      ["PATCH", `/geofences/${fence}`, { webhookSecret: "whsec_QUI" }, "webhookSecret"],
      ["POST", "/webhooks", { url: "https://example.com/h", events: ["location.updated"], secret: bad }, "secret"],
      ["PATCH", `/webhooks/${hook}`, { secret: "whsec_QR==" }, "secret"],
      ["POST", `/webhooks/${hook}/rotate-secret`, { secret: "whsec_a-b_cdef" }, "secret"],
      ["POST", `/geofences/${fence}/rotate-secret`, { secret: bad }, "secret"],
    ] as const) {
      const res = await a.api(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.message).toContain(`${field}: starts with "whsec_", so the rest must be standard base64`);
    }
    expect((await a.api("GET", `/webhooks/${hook}`)).body.secretSet).toBe(false);
  });
});

describe("account endpoint test", () => {
  it("sends a sample of the chosen event once; success gives the delivery id, failure does not, neither retries", async () => {
    let status = 200;
    const receiver = await startReceiver({ secret: WHSEC, respond: () => ({ status }) });
    try {
      const a = await newAccount();
      const hook = (await a.api("POST", "/webhooks", { url: receiver.url, secret: WHSEC, events: ["geofence.entry"] })).body;
      const ok = await a.api("POST", `/webhooks/${hook.id}/test`, {});
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ success: true, message: "Test webhook sent for location.updated event", deliveryId: expect.any(String) });
      expect(receiver.received[0]!.json).toMatchObject({ event: "location.updated", beacon: { name: "Sample beacon" } });
      expect(receiver.received[0]!.standardValid).toBe(true);
      const d = await a.api("GET", `/webhook-deliveries/${ok.body.deliveryId}`);
      expect(d.body).toMatchObject({ test: true, status: "succeeded", webhookId: hook.id, event: "location.updated" });

      const entry = await a.api("POST", `/webhooks/${hook.id}/test`, { event: "geofence.entry" });
      expect(entry.body.success).toBe(true);
      expect(Object.keys(receiver.received[1]!.json)).toEqual(["event", "occurred_at", "geofence", "beacon", "location"]);

      status = 500;
      const bad = await a.api("POST", `/webhooks/${hook.id}/test`, { event: "battery.low" });
      expect(bad.body.success).toBe(false);
      expect(bad.body.message).toMatch(/^Test webhook for battery\.low event failed \(HTTP 500\)\. Check your endpoint configuration\.$/);
      expect(bad.body).not.toHaveProperty("deliveryId");
      await new Promise((r) => setTimeout(r, DELAYS[0]! * 3));
      expect(receiver.received).toHaveLength(3);

      expect((await a.api("POST", `/webhooks/${hook.id}/test`, { event: "geofence.teleport" })).status).toBe(400);
      expect((await a.api("POST", `/webhooks/00000000-0000-4000-8000-000000000000/test`, {})).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });
});

describe("recover", () => {
  it("redelivers only failed, non-test deliveries of that endpoint created since `since`, to its current URL", async () => {
    let failing = true;
    const receiver = await startReceiver({ secret: WHSEC, respond: () => ({ status: failing ? 503 : 200 }) });
    try {
      const a = await newAccount();
      const hook = (await a.api("POST", "/webhooks", { url: receiver.url, secret: WHSEC, events: ["location.updated"] })).body;
      const other = (await a.api("POST", "/webhooks", { url: receiver.url, secret: WHSEC, events: ["location.updated"] })).body;
      await a.api("PATCH", `/webhooks/${other.id}`, { enabled: false });
      const t = (await a.api("POST", "/trackables", { name: "Van" })).body;
      const post = (latitude: number) => a.api("POST", `/trackables/${t.id}/locations`, { latitude, longitude: 13.4 });

      await post(50);
      await waitForDelivery(a, `webhookId=${hook.id}`, (d) => d.status === "failed");
      await new Promise((r) => setTimeout(r, 20));
      const since = new Date().toISOString();
      await post(50.1);
      await post(50.2);
      await a.api("POST", `/webhooks/${hook.id}/test`, {});
      await waitForDelivery(a, `webhookId=${hook.id}&status=failed`, () => true);
      const deadline = Date.now() + 15_000;
      while ((await a.api("GET", `/webhook-deliveries?webhookId=${hook.id}&status=failed`)).body.data.length < 4) {
        if (Date.now() > deadline) throw new Error("the deliveries did not all fail");
        await new Promise((r) => setTimeout(r, 200));
      }
      failing = false;
      await post(50.3);
      await waitForDelivery(a, `webhookId=${hook.id}`, (d) => d.status === "succeeded" && d.payload.location.latitude === 50.3);
      const seen = receiver.received.length;

      const res = await a.api("POST", `/webhooks/${hook.id}/recover`, { since });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ redelivered: 2 });
      const got = (await receiver.waitFor(seen + 2)).slice(seen);
      expect(got.map((r) => r.json.location.latitude).sort()).toEqual([50.1, 50.2]);
      expect(got.every((r) => r.standardValid && r.signatureValid)).toBe(true);
      for (const r of got) {
        const d = await waitForDelivery(a, `webhookId=${hook.id}`, (x) => x.id === r.headers["webhook-id"] && x.status === "succeeded");
        expect(d.test).toBe(false);
      }
      // Nothing of another endpoint, nothing before `since`, nothing after that: a second call finds the same two.
      expect((await a.api("POST", `/webhooks/${other.id}/recover`, { since })).body).toEqual({ redelivered: 0 });
      expect((await a.api("POST", `/webhooks/${hook.id}/recover`, { since: new Date().toISOString() })).body).toEqual({ redelivered: 0 });
    } finally {
      await receiver.close();
    }
  });

  it("a geofence recovers its own webhook's failed deliveries, not the account endpoints'", async () => {
    let failing = true;
    const receiver = await startReceiver({ respond: () => ({ status: failing ? 500 : 200 }) });
    try {
      const a = await newAccount();
      const since = new Date(Date.now() - 1000).toISOString();
      await a.api("POST", "/webhooks", { url: receiver.url, events: ["geofence.entry"] });
      const g = (await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200, notificationType: "webhook", webhookUrl: receiver.url })).body;
      const t = (await a.api("POST", "/trackables", { name: "Van" })).body;
      await a.api("POST", `/trackables/${t.id}/locations`, INSIDE);
      const deadline = Date.now() + 15_000;
      while ((await a.api("GET", `/webhook-deliveries?geofenceId=${g.id}&status=failed`)).body.data.length < 2) {
        if (Date.now() > deadline) throw new Error("the deliveries did not both fail");
        await new Promise((r) => setTimeout(r, 200));
      }
      failing = false;
      const seen = receiver.received.length;
      const res = await a.api("POST", `/geofences/${g.id}/recover`, { since });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ redelivered: 1 });
      const [r] = (await receiver.waitFor(seen + 1)).slice(seen);
      expect(r!.json).toMatchObject({ event: "geofence.entry", geofence: { id: g.id } });
      const d = await waitForDelivery(a, `geofenceId=${g.id}`, (x) => x.id === r!.headers["webhook-id"]);
      expect(d.webhookId).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it("validates since; 404 for another account's target", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const hook = await hookOf(a);
    for (const body of [{}, { since: "yesterday" }, { since: "2026-01-01" }, { since: "2026-01-01T00:00:00Z", extra: 1 }]) {
      const res = await a.api("POST", `/webhooks/${hook}/recover`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await b.api("POST", `/webhooks/${hook}/recover`, { since: "2026-01-01T00:00:00Z" })).status).toBe(404);
    const plain = await fenceOf(a);
    expect((await a.api("POST", `/geofences/${plain}/recover`, { since: "2026-01-01T00:00:00Z" })).status).toBe(400);
  });
});
