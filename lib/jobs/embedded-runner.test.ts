import { eq } from "drizzle-orm";
import { z } from "zod";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { EmbeddedRunner } from "./embedded-runner";
import { defineWorkflow, type Workflow } from "./types";

// The embedded runner against a real database (PGlite in a temp DATA_DIR, or a scratch Postgres with DATABASE_URL).
let db: Db;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ db, close } = await openUnitDb("runner"));
}, 120_000);

afterAll(async () => close?.());

beforeEach(async () => {
  await db.delete(jobs);
});

const calls: Array<{ step: string; n: number }> = [];
let persistedBeforeSecondStep: Record<string, unknown> | undefined;

const twoSteps = defineWorkflow({
  name: "test-two-steps",
  payload: z.object({ n: z.number() }),
  async run({ n }, io) {
    await io.runTask("first", async () => {
      calls.push({ step: "first", n });
      return n * 2;
    });
    await io.runTask("second", async () => {
      // The first step's memo is durable before the second step starts.
      const [row] = await db.select({ steps: jobs.steps }).from(jobs).where(eq(jobs.name, "test-two-steps"));
      persistedBeforeSecondStep = row?.steps;
      calls.push({ step: "second", n });
    });
  },
});

const keyed = defineWorkflow({
  name: "test-keyed",
  payload: z.object({ key: z.string() }),
  concurrencyKey: { field: "key" },
  async run({ key }, io) {
    await io.runTask("work", async () => {
      calls.push({ step: "keyed", n: key.length });
    });
  },
});

/** Starts a runner for these workflows (as the app does after a restart), waits until the jobs table is empty, stops it. */
async function drain(...wfs: Workflow[]) {
  const runner = new EmbeddedRunner(db, new Map(wfs.map((w) => [w.name, w])), { pollMs: 50, recoverAllOnStart: true, vacuumEveryMs: 0 });
  await runner.start();
  try {
    const deadline = Date.now() + 10_000;
    while ((await db.select({ id: jobs.id }).from(jobs)).length > 0) {
      if (Date.now() > deadline) throw new Error("the runner did not finish its jobs within 10 s");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await runner.stop();
  }
}

describe("EmbeddedRunner", () => {
  it("persists a step's result before the next step runs, and deletes the job when the run ends", async () => {
    calls.length = 0;
    await db.insert(jobs).values({ name: twoSteps.name, payload: { n: 21 } });
    await drain(twoSteps as unknown as Workflow);
    expect(calls).toEqual([
      { step: "first", n: 21 },
      { step: "second", n: 21 },
    ]);
    expect(persistedBeforeSecondStep).toEqual({ "task:first": 42 });
  });

  it("does not re-run a step memoized by an earlier run", async () => {
    calls.length = 0;
    await db.insert(jobs).values({ name: twoSteps.name, payload: { n: 5 }, steps: { "task:first": 10 } });
    await drain(twoSteps as unknown as Workflow);
    expect(calls).toEqual([{ step: "second", n: 5 }]);
  });

  it("restarts after a crash that left a running job beside a queued one with the same dedupe key", async () => {
    calls.length = 0;
    // What kill -9 during an evaluation leaves behind when another post for the trackable came in meanwhile.
    await db.insert(jobs).values([
      { name: keyed.name, payload: { key: "abc" }, status: "running", lockedBy: "runner-dead", lockedUntil: new Date(Date.now() + 60_000), dedupeKey: "k:abc", concurrencyKey: "test-keyed:abc" },
      { name: keyed.name, payload: { key: "abc" }, dedupeKey: "k:abc", concurrencyKey: "test-keyed:abc" },
    ]);
    await drain(keyed as unknown as Workflow);
    expect(calls).toEqual([
      { step: "keyed", n: 3 },
      { step: "keyed", n: 3 },
    ]);
  });
});
