import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries } from "@/lib/db/schema";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { openUnitDb } from "@/tests/support/unit-db";
import { attemptDelivery } from "./deliveries";

allowLoopbackTargets();
vi.stubEnv("WEBHOOK_RETRY_DELAYS", "1000,1000");

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("webhook-attempts");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

describe("attemptDelivery", () => {
  it("replayed after a crash that lost the workflow's memo of it, an attempt is not sent again and keeps the Retry-After it recorded", async () => {
    const capture = await startCapture(() => ({ status: 503, body: "busy", headers: { "Retry-After": "4" } }));
    try {
      const ctx = await unit.account();
      const [delivery] = await unit.db
        .insert(webhookDeliveries)
        .values({ accountId: ctx.account.id, event: "geofence.entry", url: capture.url, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", payload: { event: "geofence.entry" } })
        .returning();
      expect(await attemptDelivery(delivery!.id, 1, { final: false })).toEqual({ outcome: "retry", retryInMs: 4000 });
      const [recorded] = await unit.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery!.id));
      const replayed = await attemptDelivery(delivery!.id, 1, { final: false });
      expect(capture.requests).toHaveLength(1);
      // What is left of the wait the history promised (nextAttemptAt), not the schedule's 1 s from now.
      expect(replayed.outcome).toBe("retry");
      expect(replayed.retryInMs).toBeGreaterThan(2000);
      expect(replayed.retryInMs).toBeLessThanOrEqual(4000);
      expect(Date.now() + replayed.retryInMs! - recorded!.nextAttemptAt!.getTime()).toBeLessThan(200);
    } finally {
      await capture.close();
    }
  });
});
