import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { metrics } from "./registry";
import { collectDatabase } from "./scrape";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("metrics-scrape");
  db = unit.db;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

const gauge = async (g: { get(): Promise<{ values: { labels: Record<string, unknown>; value: number }[] }> }) =>
  Object.fromEntries((await g.get()).values.map((v) => [String(v.labels.workflow), v.value]));

describe("the jobs gauges", () => {
  it("count the due queued runs of each workflow and the oldest one's wait; future, running and failed runs are not waiting", async () => {
    const ago = (s: number) => new Date(Date.now() - s * 1000);
    await db.insert(jobs).values([
      { name: "test/waiting", payload: {}, runAt: ago(90) },
      { name: "test/waiting", payload: {}, runAt: ago(30) },
      { name: "test/later", payload: {}, runAt: ago(-600) },
      { name: "test/running", payload: {}, status: "running", runAt: ago(300), lockedUntil: ago(-60), lockedBy: "elsewhere" },
      { name: "test/failed", payload: {}, status: "failed", runAt: ago(300) },
    ]);

    await collectDatabase();
    const queued = await gauge(metrics().jobsQueued);
    const oldest = await gauge(metrics().jobsOldestAge);
    expect(queued).toEqual({ "test/waiting": 2 });
    expect(oldest["test/waiting"]).toBeGreaterThanOrEqual(89);
    expect(oldest["test/waiting"]).toBeLessThan(150);

    // The gauges are read afresh at each scrape: a workflow that no longer waits leaves them.
    await db.delete(jobs);
    await collectDatabase();
    expect(await gauge(metrics().jobsQueued)).toEqual({});
  });
});
