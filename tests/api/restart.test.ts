import { expect, it } from "vitest";
import { newAccount } from "../harness/client";
import { crashServers } from "../harness/crash";
import { startReceiver } from "../support/receiver";

// A retry that falls due while the app is down is sent when it comes back: the app process is really killed (-9)
// and started again on the same data.

const crash = crashServers();

it("a pending retry survives kill -9 and is sent once after the restart", async () => {
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_DELAYS: "2500,2500,2500", WEBHOOK_TIMEOUT_MS: "2000" };
  const receiver = await startReceiver({ secret: "restart-secret", respond: (_r, n) => ({ status: n === 1 ? 500 : 200 }) });
  try {
    const first = await crash.start({ name: "restart", env });
    const a = await newAccount();
    const t = (await a.api("POST", "/trackables", { name: "Restarted" })).body;
    const g = await a.api("POST", "/geofences", {
      name: "Yard",
      latitude: 10,
      longitude: 10,
      radius: 500,
      notificationType: "webhook",
      webhookUrl: receiver.url,
      webhookSecret: "restart-secret",
    });
    expect(g.status, g.text).toBe(201);
    await a.api("POST", `/trackables/${t.id}/locations`, { latitude: 10, longitude: 10 });
    const [attempt1] = await receiver.waitFor(1);
    const deliveryId = attempt1!.headers["x-service-delivery"] as string;
    // Kill once the failed first attempt is recorded and its retry scheduled.
    for (let i = 0; ; i++) {
      const d = await a.api("GET", `/webhook-deliveries/${deliveryId}`);
      if (d.body.nextAttemptAt) break;
      if (i > 100) throw new Error(`retry never scheduled: ${d.text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.kill();

    // The retry is due 2.5 s after the failure; the app stays down past that.
    await new Promise((r) => setTimeout(r, 3500));
    expect(receiver.received).toHaveLength(1);

    await crash.restart();
    const got = await receiver.waitFor(2, 20_000);
    expect(got[1]!.headers["x-service-delivery"]).toBe(attempt1!.headers["x-service-delivery"]);
    expect(got[1]!.signatureValid).toBe(true);
    await new Promise((r) => setTimeout(r, 3000));
    expect(receiver.received).toHaveLength(2);
    const d = await a.api("GET", `/webhook-deliveries/${attempt1!.headers["x-service-delivery"]}`);
    expect(d.body.status).toBe("succeeded");
    expect(d.body.attempts.map((x: any) => [x.number, x.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  } finally {
    await receiver.close();
  }
  // Two server starts on a fresh data directory: slow on a loaded machine.
}, 180_000);
