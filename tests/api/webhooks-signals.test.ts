import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer, type TestAccount } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { startReceiver } from "../support/receiver";

// Receiver signals and auto-disable, end to end: a real server with short retry delays and real receivers that answer
// 429/503 with Retry-After, 410, or keep failing.

const DELAYS = [200, 200, 200];
const DISABLE_AFTER = 3;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_RETRY_DELAYS: DELAYS.join(","),
      WEBHOOK_TIMEOUT_MS: "1000",
      WEBHOOK_DISABLE_AFTER_FAILURES: String(DISABLE_AFTER),
    },
  });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const deliveries = async (a: TestAccount, query: string) => (await a.api("GET", `/webhook-deliveries?${query}`)).body.data as any[];

async function endpoint(a: TestAccount, url: string) {
  const hook = await a.api("POST", "/webhooks", { url, events: ["location.updated"] });
  expect(hook.status, hook.text).toBe(201);
  const t = (await a.api("POST", "/trackables", { name: "Phone" })).body;
  let lat = 40;
  const post = async () => {
    lat += 0.01;
    const res = await a.api("POST", `/trackables/${t.id}/locations`, { latitude: lat, longitude: 10 });
    expect(res.status).toBe(201);
  };
  return { hook: hook.body, post };
}

describe("Retry-After", () => {
  it("a 429 with Retry-After in seconds delays that retry to at least then", async () => {
    const receiver = await startReceiver({ respond: (_r, n) => (n === 1 ? { status: 429, headers: { "Retry-After": "2" } } : { status: 200 }) });
    try {
      const a = await newAccount();
      const { hook, post } = await endpoint(a, receiver.url);
      await post();
      await receiver.waitFor(1);
      const pending = await until("the retry scheduled", async () => (await deliveries(a, `webhookId=${hook.id}`)).find((d) => d.attempts.length === 1 && d.nextAttemptAt));
      expect(Date.parse(pending.nextAttemptAt) - Date.parse(pending.attempts[0].attemptedAt)).toBeGreaterThanOrEqual(1900);
      const got = await receiver.waitFor(2);
      expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(2000 - 50);
      expect(got[1]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]);
    } finally {
      await receiver.close();
    }
  });

  it("a 503 with an HTTP-date waits until that date; a longer one is capped at one hour", async () => {
    let retryAfter = "";
    const receiver = await startReceiver({ respond: (_r, n) => (n === 1 ? { status: 503, headers: { "Retry-After": retryAfter } } : n === 2 ? { status: 200 } : { status: 503, headers: { "Retry-After": "86400" } }) });
    try {
      const a = await newAccount();
      const { hook, post } = await endpoint(a, receiver.url);
      const target = Math.ceil((Date.now() + 3000) / 1000) * 1000; // HTTP-dates have whole seconds
      retryAfter = new Date(target).toUTCString();
      await post();
      const got = await receiver.waitFor(2);
      expect(got[1]!.at).toBeGreaterThanOrEqual(target - 50);

      // 86400 s asked: the retry is due in one hour, not a day.
      await post();
      await receiver.waitFor(3);
      const capped = await until("the capped retry", async () => (await deliveries(a, `webhookId=${hook.id}`)).find((d) => d.status === "pending" && d.nextAttemptAt));
      const wait = Date.parse(capped.nextAttemptAt) - Date.parse(capped.attempts[0].attemptedAt);
      expect(wait).toBeGreaterThan(3_500_000);
      expect(wait).toBeLessThanOrEqual(3_600_000 + 5_000);
    } finally {
      await receiver.close();
    }
  });

  it("Retry-After on another status changes nothing", async () => {
    const receiver = await startReceiver({ respond: (_r, n) => (n === 1 ? { status: 500, headers: { "Retry-After": "30" } } : { status: 200 }) });
    try {
      const a = await newAccount();
      const { post } = await endpoint(a, receiver.url);
      await post();
      const got = await receiver.waitFor(2, 5_000);
      expect(got[1]!.at - got[0]!.at).toBeLessThan(5_000);
    } finally {
      await receiver.close();
    }
  });
});

describe("410 Gone", () => {
  it("ends the delivery at once and switches the account endpoint off; PATCH enabled:true switches it back on", async () => {
    let gone = true;
    const receiver = await startReceiver({ respond: () => ({ status: gone ? 410 : 200 }) });
    try {
      const a = await newAccount();
      const { hook, post } = await endpoint(a, receiver.url);
      await post();
      const failed = await until("the failed delivery", async () => (await deliveries(a, `webhookId=${hook.id}`)).find((d) => d.status === "failed"));
      expect(failed.attempts).toHaveLength(1);
      expect(failed.attempts[0].statusCode).toBe(410);
      const off = (await a.api("GET", `/webhooks/${hook.id}`)).body;
      expect(off).toMatchObject({ enabled: false, disabledReason: "gone" });
      expect(Date.now() - Date.parse(off.disabledAt)).toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, DELAYS[0]! * 3));
      expect(receiver.received).toHaveLength(1);
      // Switched off: new events are not sent to it.
      await post();
      await new Promise((r) => setTimeout(r, 500));
      expect(await deliveries(a, `webhookId=${hook.id}`)).toHaveLength(1);

      gone = false;
      const on = await a.api("PATCH", `/webhooks/${hook.id}`, { enabled: true });
      expect(on.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
      await post();
      await until("a delivery after re-enabling", async () => (await deliveries(a, `webhookId=${hook.id}`)).find((d) => d.status === "succeeded"));
    } finally {
      await receiver.close();
    }
  });

  it("a geofence's own webhook: the delivery ends at once, the geofence is unchanged", async () => {
    const receiver = await startReceiver({ respond: () => ({ status: 410 }) });
    try {
      const a = await newAccount();
      const g = (await a.api("POST", "/geofences", { name: "Depot", latitude: 52.52, longitude: 13.405, radius: 200, notificationType: "webhook", webhookUrl: receiver.url })).body;
      const t = (await a.api("POST", "/trackables", { name: "Van" })).body;
      await a.api("POST", `/trackables/${t.id}/locations`, { latitude: 52.5201, longitude: 13.4051 });
      const failed = await until("the failed delivery", async () => (await deliveries(a, `geofenceId=${g.id}`)).find((d) => d.status === "failed"));
      expect(failed.attempts).toHaveLength(1);
      expect((await a.api("GET", `/geofences/${g.id}`)).body.notificationType).toBe("webhook");
    } finally {
      await receiver.close();
    }
  });
});

describe("auto-disable", () => {
  it(`switches an endpoint off after ${DISABLE_AFTER} failed deliveries in a row; a success in between resets the count; tests do not count`, async () => {
    let status = 500;
    const receiver = await startReceiver({ respond: () => ({ status }) });
    try {
      const a = await newAccount();
      const { hook, post } = await endpoint(a, receiver.url);
      const ended = async (n: number) =>
        until(`${n} ended deliveries`, async () => {
          const all = await deliveries(a, `webhookId=${hook.id}&limit=100`);
          return all.filter((d) => d.status !== "pending").length >= n && all;
        });

      // Two failures, then a success: the run is broken.
      await post();
      await post();
      await ended(2);
      status = 200;
      await post();
      await ended(3);
      status = 500;
      // Failed tests do not count.
      for (let i = 0; i < DISABLE_AFTER; i++) expect((await a.api("POST", `/webhooks/${hook.id}/test`, {})).body.success).toBe(false);
      await post();
      await post();
      await ended(5 + DISABLE_AFTER);
      expect((await a.api("GET", `/webhooks/${hook.id}`)).body).toMatchObject({ enabled: true, disabledReason: null });

      await post();
      await ended(6 + DISABLE_AFTER);
      const off = await until("the endpoint switched off", async () => {
        const w = (await a.api("GET", `/webhooks/${hook.id}`)).body;
        return !w.enabled && w;
      });
      expect(off).toMatchObject({ enabled: false, disabledReason: "failing", disabledAt: expect.any(String) });

      const on = await a.api("PATCH", `/webhooks/${hook.id}`, { enabled: true });
      expect(on.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
      // The count starts again: one more failure does not switch it off.
      await post();
      await ended(7 + DISABLE_AFTER);
      expect((await a.api("GET", `/webhooks/${hook.id}`)).body.enabled).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
