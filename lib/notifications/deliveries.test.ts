import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { notificationChannels, notificationDeliveries } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { openUnitDb } from "@/tests/support/unit-db";
import { attemptNotification } from "./deliveries";

allowLoopbackTargets();
vi.stubEnv("WEBHOOK_RETRY_DELAYS", "1000,1000");

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("notification-attempts");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

/** A pending delivery of one event to an ntfy channel on `serverUrl`. */
async function pendingDelivery(serverUrl: string): Promise<string> {
  const ctx = await unit.account();
  const [channel] = await unit.db
    .insert(notificationChannels)
    .values({ accountId: ctx.account.id, name: "Phone", type: "ntfy", config: { serverUrl, topic: "replay" } })
    .returning();
  const id = newId();
  await unit.db.insert(notificationDeliveries).values({
    id,
    accountId: ctx.account.id,
    channelId: channel!.id,
    eventId: newId(),
    eventType: "geofence.entry",
    trackableId: newId(),
    eventOccurredAt: new Date(),
    status: "pending",
    message: { title: "Van 7 entered Depot", body: "at 14:03 (UTC)", link: null, tags: [] },
  });
  return id;
}

describe("attemptNotification", () => {
  it("replayed after a crash that lost the workflow's memo of it, an attempt is not sent again and keeps the Retry-After it recorded", async () => {
    const capture = await startCapture(() => ({ status: 503, body: "busy", headers: { "Retry-After": "4" } }));
    try {
      const id = await pendingDelivery(capture.url);
      expect(await attemptNotification(id, 1, { final: false })).toEqual({ outcome: "retry", retryInMs: 4000 });
      const [recorded] = await unit.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.id, id));
      const replayed = await attemptNotification(id, 1, { final: false });
      expect(capture.requests).toHaveLength(1);
      // What is left of the wait the log promised (nextAttemptAt), not the schedule's 1 s from now.
      expect(replayed.outcome).toBe("retry");
      expect(replayed.retryInMs).toBeGreaterThan(2000);
      expect(replayed.retryInMs).toBeLessThanOrEqual(4000);
      expect(Date.now() + replayed.retryInMs! - recorded!.nextAttemptAt!.getTime()).toBeLessThan(200);
    } finally {
      await capture.close();
    }
  });
});
