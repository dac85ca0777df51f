import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver } from "../support/receiver";
import { scratchPostgres } from "../support/scratch-db";

// The Inngest functions, run by @inngest/test over the real workflow code: a real database (PGlite in a temp
// directory, or DATABASE_URL) and a real local receiver. Only the sleeps are mocked (they would wait for real).

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-inngest-"));
process.env.DATA_DIR = dataDir;
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
delete process.env.WEBHOOK_RETRY_DELAYS;

const mod = async () => {
  const [{ getDb, closeDb }, { ensureAccount }, { insertDeliveries }, functions, schema] = await Promise.all([
    import("@/lib/db/client"),
    import("@/lib/accounts/accounts"),
    import("@/lib/webhooks/deliveries"),
    import("@/inngest/functions"),
    import("@/lib/db/schema"),
  ]);
  return { getDb, closeDb, ensureAccount, insertDeliveries, functions, schema };
};
let m: Awaited<ReturnType<typeof mod>>;
let dropDatabase: (() => Promise<void>) | null = null;

beforeAll(async () => {
  // On Postgres (CI's second pass), a scratch database of its own: the shared one may hold another schema.
  if (process.env.DATABASE_URL) {
    const scratch = await scratchPostgres(process.env.DATABASE_URL, "fenceline_inngest");
    process.env.DATABASE_URL = scratch.url;
    dropDatabase = scratch.drop;
  }
  m = await mod();
  // Opened (and migrated) here, under the hook's timeout, not inside the first test's.
  await m.getDb();
}, 120_000);
afterAll(async () => {
  await m.closeDb();
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function newDelivery(url: string, secret: string | null) {
  const db = await m.getDb();
  const account = await m.ensureAccount(db, { slug: `inngest-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, plan: "enterprise" });
  const [row] = await m.insertDeliveries(db, [
    { accountId: account.id, event: "geofence.entry", url, secret, payload: { event: "geofence.entry", occurred_at: new Date().toISOString() } },
  ]);
  return row!;
}

const deliverFn = () => m.functions.functions.find((f) => f.id() === "deliver-webhook")!;
const sleeps = () => [1, 2, 3].map((n) => ({ id: `retry-${n}-wait`, handler() {} }));

describe("deliver-webhook on Inngest", () => {
  it("retries after 5 s, 30 s and 2 min by default, then the delivery is failed", async () => {
    const receiver = await startReceiver({ secret: "s3cret-key", respond: () => ({ status: 500, body: "nope" }) });
    try {
      const delivery = await newDelivery(receiver.url, "s3cret-key");
      const t = new InngestTestEngine({
        function: deliverFn(),
        events: [{ name: "fenceline/webhook.deliver", data: { deliveryId: delivery.id } }],
        steps: sleeps(),
      });
      const { ctx, error } = await t.execute();
      expect(error).toBeUndefined();
      expect(ctx.step.sleep).toHaveBeenCalledTimes(3);
      expect(ctx.step.sleep).toHaveBeenNthCalledWith(1, "retry-1-wait", 5000);
      expect(ctx.step.sleep).toHaveBeenNthCalledWith(2, "retry-2-wait", 30000);
      expect(ctx.step.sleep).toHaveBeenNthCalledWith(3, "retry-3-wait", 120000);
      expect(receiver.received).toHaveLength(4);
      expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
      expect(new Set(receiver.received.map((r) => r.headers["x-service-delivery"]))).toEqual(new Set([delivery.id]));
      const db = await m.getDb();
      const [row] = await db.select().from(m.schema.webhookDeliveries).where(eq(m.schema.webhookDeliveries.id, delivery.id));
      expect(row!.status).toBe("failed");
      expect(row!.attemptCount).toBe(4);
    } finally {
      await receiver.close();
    }
  });

  it("stops after the first 2xx", async () => {
    const receiver = await startReceiver({ respond: (_r, n) => ({ status: n === 1 ? 503 : 204 }) });
    try {
      const delivery = await newDelivery(receiver.url, null);
      const t = new InngestTestEngine({
        function: deliverFn(),
        events: [{ name: "fenceline/webhook.deliver", data: { deliveryId: delivery.id } }],
        steps: sleeps(),
      });
      const { ctx, error } = await t.execute();
      expect(error).toBeUndefined();
      expect(ctx.step.sleep).toHaveBeenCalledTimes(1);
      expect(ctx.step.sleep).toHaveBeenCalledWith("retry-1-wait", 5000);
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[0]!.headers["x-service-signature"]).toBeUndefined();
      const db = await m.getDb();
      const [row] = await db.select().from(m.schema.webhookDeliveries).where(eq(m.schema.webhookDeliveries.id, delivery.id));
      expect(row!.status).toBe("succeeded");
    } finally {
      await receiver.close();
    }
  });

  it("serves every workflow as an Inngest function with its trigger and per-trackable concurrency", () => {
    const ids = m.functions.functions.map((f) => f.id()).sort();
    expect(ids).toEqual(["deliver-notification", "deliver-webhook", "device-offline-sweep", "evaluate-geofences", "purge-idempotency-keys", "read-import", "retention-sweep"]);
  });

  it("evaluate-geofences runs the evaluation as a step and records the entry once", async () => {
    const db = await m.getDb();
    const { trackables, geofences, locations, geofenceMemberships, trackableStates } = m.schema;
    const account = await m.ensureAccount(db, { slug: `eval-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, plan: "enterprise" });
    const [t] = await db.insert(trackables).values({ accountId: account.id, name: "Evaluated" }).returning();
    const [g] = await db.insert(geofences).values({ accountId: account.id, name: "Zone", latitude: 1, longitude: 1, radius: 500 }).returning();
    await db.insert(locations).values({ trackableId: t!.id, latitude: 1.001, longitude: 1, timestamp: new Date() });
    const evaluateFn = m.functions.functions.find((f) => f.id() === "evaluate-geofences")!;
    const run = () =>
      new InngestTestEngine({ function: evaluateFn, events: [{ name: "fenceline/locations.ingested", data: { trackableId: t!.id } }] }).execute();
    const first = await run();
    expect(first.error).toBeUndefined();
    expect(first.ctx.step.run).toHaveBeenCalledWith("evaluate-1", expect.any(Function));
    const members = await db.select().from(geofenceMemberships).where(eq(geofenceMemberships.trackableId, t!.id));
    expect(members.map((r) => r.geofenceId)).toEqual([g!.id]);
    const [state] = await db.select().from(trackableStates).where(eq(trackableStates.trackableId, t!.id));
    expect(state!.status).toBe("online");
    // A second run finds nothing new: the membership is unchanged and no transition is emitted again.
    const second = await run();
    expect(second.error).toBeUndefined();
    expect(await db.select().from(geofenceMemberships).where(eq(geofenceMemberships.trackableId, t!.id))).toHaveLength(1);
  });

  it("evaluate-geofences takes its events in batches and evaluates the batch's trackables in one round", async () => {
    const db = await m.getDb();
    const { trackables, geofences, locations, geofenceMemberships, events } = m.schema;
    const evaluateFn = m.functions.functions.find((f) => f.id() === "evaluate-geofences")!;
    expect(evaluateFn.opts.batchEvents).toEqual({ maxSize: 100, timeout: "1s" });
    const account = await m.ensureAccount(db, { slug: `batch-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, plan: "free" });
    const [g] = await db.insert(geofences).values({ accountId: account.id, name: "Zone", latitude: 2, longitude: 2, radius: 500 }).returning();
    const ts = await db.insert(trackables).values([{ accountId: account.id, name: "A" }, { accountId: account.id, name: "B" }]).returning();
    await db.insert(locations).values(ts.map((t) => ({ trackableId: t.id, latitude: 2.001, longitude: 2, timestamp: new Date() })));
    const run = await new InngestTestEngine({
      function: evaluateFn,
      events: [
        { name: "fenceline/locations.ingested", data: { trackableId: ts[0]!.id } },
        { name: "fenceline/locations.ingested", data: { trackableId: ts[1]!.id } },
      ],
    }).execute();
    expect(run.error).toBeUndefined();
    expect(run.ctx.step.run).toHaveBeenCalledTimes(1);
    expect(run.ctx.step.run).toHaveBeenCalledWith("evaluate-1", expect.any(Function));
    for (const t of ts) {
      expect((await db.select().from(geofenceMemberships).where(eq(geofenceMemberships.trackableId, t.id))).map((r) => r.geofenceId)).toEqual([g!.id]);
      expect((await db.select().from(events).where(eq(events.trackableId, t.id))).map((e) => e.type).sort()).toEqual(["device.status_changed", "geofence.entry"]);
    }
  });
});
