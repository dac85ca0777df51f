import { InngestTestEngine, mockCtx } from "@inngest/test";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newId } from "@/lib/db/ids";
import { jobs, locations, trackableStates, trackables, webhookDeliveries, webhooks } from "@/lib/db/schema";
import { EmbeddedRunner } from "@/lib/jobs/embedded-runner";
import { evaluateGeofences } from "@/lib/jobs/workflows/evaluate-geofences";
import type { Workflow } from "@/lib/jobs/types";
import { openUnitDb } from "@/tests/support/unit-db";
import { log } from "@/lib/log/logger";

// A point whose evaluation fails every time (a deterministic failure) must not stop the trackable's later points, on
// the embedded runner and on Inngest. The failure is real: a trigger in the database refuses the location.updated
// delivery of one latitude, so the round's transaction fails wherever that point is in it.

let unit: Awaited<ReturnType<typeof openUnitDb>>;
const POISON = 13.37;

beforeAll(async () => {
  delete process.env.INNGEST_DEV;
  unit = await openUnitDb("poison");
  await unit.db.execute(sql`
    create or replace function refuse_poisoned_delivery() returns trigger language plpgsql as $$
    begin
      if (new.payload::jsonb -> 'location' ->> 'latitude')::float8 = ${sql.raw(String(POISON))} then
        raise exception 'poisoned point';
      end if;
      return new;
    end $$`);
  await unit.db.execute(sql`create trigger refuse_poisoned before insert on webhook_deliveries for each row execute function refuse_poisoned_delivery()`);
}, 120_000);

afterAll(async () => {
  await unit.db.execute(sql`drop trigger if exists refuse_poisoned on webhook_deliveries`);
  await unit?.close();
});

/** A trackable of an enterprise account with an endpoint subscribed to location.updated, and its points (latitudes). */
async function trackableWithPoints(latitudes: number[]) {
  const ctx = await unit.account("enterprise");
  await unit.db.insert(webhooks).values({ accountId: ctx.account.id, url: "https://hooks.example.com/x", events: ["location.updated"] });
  const [t] = await unit.db.insert(trackables).values({ accountId: ctx.account.id, name: "Poisoned" }).returning();
  const t0 = Date.parse("2026-11-22T10:00:00.000Z");
  const ids = latitudes.map(() => newId());
  await unit.db.insert(locations).values(latitudes.map((latitude, i) => ({ id: ids[i]!, trackableId: t!.id, latitude, longitude: 1, timestamp: new Date(t0 + i * 1000) })));
  return { trackableId: t!.id, ids };
}

/** The latitudes of the location.updated deliveries made for the trackable, in point order. */
async function deliveredLatitudes(trackableId: string) {
  const rows = await unit.db
    .select({ payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.trackableId, trackableId), eq(webhookDeliveries.event, "location.updated")))
    .orderBy(asc(webhookDeliveries.id));
  return rows.map((r) => (r.payload as { location: { latitude: number } }).location.latitude);
}

describe("a point that can never be evaluated", () => {
  it("is skipped with a logged reason on the embedded runner, and the points after it are evaluated", async () => {
    const latitudes = [1, 1.001, 1.002, POISON, 1.003, 1.004];
    const { trackableId, ids } = await trackableWithPoints(latitudes);
    await unit.db.insert(jobs).values({ name: evaluateGeofences.name, payload: { trackableId }, concurrencyKey: `evaluate-geofences:${trackableId}` });
    const logs: string[] = [];
    const spy = vi.spyOn(log, "error").mockImplementation((...a: unknown[]) => void logs.push(a.map(String).join(" ")));
    const runnerLog = { error: (...a: unknown[]) => logs.push(a.map(String).join(" ")), warn: () => {} };
    const runner = new EmbeddedRunner(unit.db, new Map([[evaluateGeofences.name, evaluateGeofences as unknown as Workflow]]), {
      pollMs: 20,
      retryBaseMs: 5,
      log: runnerLog,
    });
    await runner.start();
    try {
      const deadline = Date.now() + 20_000;
      while ((await unit.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.name, evaluateGeofences.name))).length > 0) {
        if (Date.now() > deadline) throw new Error(`the evaluation did not finish: ${logs.join("\n")}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await runner.stop();
      spy.mockRestore();
    }
    expect(await deliveredLatitudes(trackableId)).toEqual(latitudes.filter((l) => l !== POISON));
    const [state] = await unit.db.select().from(trackableStates).where(eq(trackableStates.trackableId, trackableId));
    expect(state!.evaluatedLocationId).toBe(ids.at(-1));
    expect(logs.some((l) => l.includes(`[geofences] skipped location ${ids[3]} of trackable ${trackableId}`) && l.includes("poisoned point"))).toBe(true);
    await unit.db.delete(jobs);
  });

  it("is skipped on Inngest's last try (retries configured on the function), and the points after it are evaluated", async () => {
    const latitudes = [2, POISON, 2.001];
    const { trackableId, ids } = await trackableWithPoints(latitudes);
    const { functions } = await import("@/inngest/functions");
    const fn = functions.find((f) => f.id() === evaluateGeofences.name)!;
    expect(fn.opts.retries).toBe(7);
    expect(fn.opts.onFailure).toBeTypeOf("function");
    const event = { name: "fenceline/locations.ingested", data: { trackableId } };

    // First try: the round of 2,000 points fails (Inngest would retry the step).
    const first = await new InngestTestEngine({ function: fn, events: [event] }).execute();
    expect(first.error).toBeDefined();
    expect(await deliveredLatitudes(trackableId)).toEqual([]);

    // The last try: one point, the poisoned one, skipped; the next rounds evaluate the rest.
    const spy = vi.spyOn(log, "error").mockImplementation(() => {});
    try {
      const last = await new InngestTestEngine({
        function: fn,
        events: [event],
        transformCtx: (raw) => ({ ...mockCtx(raw), attempt: 7, maxAttempts: 8 }),
      }).execute();
      expect(last.error).toBeUndefined();
      expect(spy.mock.calls.some((c) => String(c[0]).includes(`skipped location ${ids[1]}`))).toBe(true);
    } finally {
      spy.mockRestore();
    }
    // Every round of that try is one point: the first is evaluated, the poisoned one skipped, then the last evaluated.
    expect(await deliveredLatitudes(trackableId)).toEqual([2, 2.001]);
    const [state] = await unit.db.select().from(trackableStates).where(eq(trackableStates.trackableId, trackableId));
    expect(state!.evaluatedLocationId).toBe(ids.at(-1));
  });
});
