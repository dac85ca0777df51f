import { afterAll, beforeAll, expect, it } from "vitest";
import { newAccount, useServer } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { startReceiver } from "../support/receiver";

// A round whose deliveries needed more than 65,535 bind parameters (7 endpoints × a 1,000-point
// batch) failed on every try, and every later location of the trackable was never evaluated. A server of its own:
// the 10,010 deliveries would slow the suite's shared server down.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_TIMEOUT_MS: "5000" } });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

it("10 endpoints × a 1,000-point batch, then one more point: every endpoint gets that point's location.updated", async () => {
  const receiver = await startReceiver();
  try {
    const a = await newAccount();
    const endpoints: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await a.api("POST", "/webhooks", { url: `${receiver.url}?endpoint=${i}`, events: ["location.updated"] });
      expect(res.status, res.text).toBe(201);
      endpoints.push(res.body.url);
    }
    const t = (await a.api("POST", "/trackables", { name: "Busy" })).body;
    const t0 = Date.parse("2026-11-22T06:00:00.000Z");
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      latitude: 48 + i / 10_000,
      longitude: 2,
      timestamp: new Date(t0 + i * 1000).toISOString(),
    }));
    expect((await a.api("POST", `/trackables/${t.id}/locations`, { locations: batch })).status).toBe(201);
    const last = { latitude: 49, longitude: 3, timestamp: new Date(t0 + 2_000_000).toISOString() };
    expect((await a.api("POST", `/trackables/${t.id}/locations`, last)).status).toBe(201);

    // The trackable is not jammed: the last point is evaluated and its 10 deliveries are the newest in the history.
    // Jobs run in the order they fell due, so with the embedded database the last point's evaluation may wait behind
    // the batch's 10,000 deliveries (minutes on a loaded 2-core machine; about 100 deliveries per second when idle).
    const deadline = Date.now() + 1_200_000;
    const ids = new Set<string>();
    for (;;) {
      const page = await a.api("GET", `/webhook-deliveries?trackableId=${t.id}&event=location.updated&limit=10`);
      const lastOnes = page.body.data.filter((d: any) => d.payload.location.timestamp === last.timestamp);
      if (lastOnes.length === 10) {
        for (const d of lastOnes) ids.add(d.webhookId);
        break;
      }
      if (Date.now() > deadline) throw new Error(`the last point was never evaluated: ${page.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(ids.size).toBe(10);

    // Every endpoint receives the last point's location.updated (after the batch's 10,000 deliveries, sent first).
    const endpointsWithLast = () =>
      new Set(receiver.received.filter((r) => r.json.location?.timestamp === last.timestamp).map((r) => r.url));
    while (endpointsWithLast().size < endpoints.length) {
      if (Date.now() > deadline) {
        throw new Error(`after 1,200 s, ${endpointsWithLast().size} of 10 endpoints had the last point (${receiver.received.length} requests received)`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect([...endpointsWithLast()].sort()).toEqual(endpoints.map((u) => new URL(u).pathname + new URL(u).search).sort());
    // And the batch itself was delivered too: its last point reached every endpoint.
    const batchLast = batch.at(-1)!.timestamp;
    expect(new Set(receiver.received.filter((r) => r.json.location?.timestamp === batchLast).map((r) => r.url)).size).toBe(10);
  } finally {
    await receiver.close();
  }
}, 1_300_000);
