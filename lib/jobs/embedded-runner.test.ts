import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { enqueueMany, wakeRunner } from "./client";
import type { Db } from "@/lib/db/client";
import { executeRows } from "@/lib/db/rows";
import { jobs, motionInbox } from "@/lib/db/schema";
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

/** A one-step workflow, not batched, that records each run's n in `ran`. */
function recording(ran: number[]) {
  return defineWorkflow({
    name: "test-plain",
    payload: z.object({ n: z.number() }),
    async run({ n }, io) {
      await io.runTask("once", async () => {
        ran.push(n);
      });
    },
  });
}

/**
 * Starts a runner for these workflows (as the app does after a restart), waits until no job is queued or running,
 * stops it; returns what the runner logged.
 */
async function drain(...wfs: Workflow[]) {
  const logged: string[] = [];
  const log = { error: (...a: unknown[]) => logged.push(a.map(String).join(" ")), warn: (...a: unknown[]) => logged.push(a.map(String).join(" ")) };
  const runner = new EmbeddedRunner(db, new Map(wfs.map((w) => [w.name, w])), { pollMs: 50, recoverAllOnStart: true, vacuumEveryMs: 0, retryBaseMs: 10, log });
  await runner.start();
  try {
    const deadline = Date.now() + 10_000;
    while ((await db.select({ id: jobs.id }).from(jobs).where(inArray(jobs.status, ["queued", "running"]))).length > 0) {
      if (Date.now() > deadline) throw new Error("the runner did not finish its jobs within 10 s");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await runner.stop();
  }
  return logged;
}

/** Waits (up to 10 s) until the jobs table is empty. */
async function untilNoJobs() {
  const deadline = Date.now() + 10_000;
  while ((await db.select({ id: jobs.id }).from(jobs)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
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

describe("EmbeddedRunner finished jobs", () => {
  it("are deleted by the next claim, which their concurrency key no longer holds back, or on their own when none comes", async () => {
    calls.length = 0;
    // No poll: only a run's end can claim the second run of the key, in the statement that deletes the first.
    const runner = new EmbeddedRunner(db, new Map([[keyed.name, keyed as unknown as Workflow]]), { pollMs: 60_000 });
    await runner.start();
    try {
      await enqueueMany(keyed, [{ payload: { key: "abc" }, dedupeKey: "k:1" }, { payload: { key: "abc" }, dedupeKey: "k:2" }], { executor: db });
      wakeRunner();
      await untilNoJobs();
      // The second job went too, with no claim after it: by the statement of its own.
      expect(calls).toEqual([
        { step: "keyed", n: 3 },
        { step: "keyed", n: 3 },
      ]);
      expect(await db.select().from(jobs)).toHaveLength(0);
    } finally {
      await runner.stop();
    }
  });
});

describe("EmbeddedRunner failures", () => {
  const tries: Array<{ step: string; attempt: number }> = [];
  const failsLeft = new Map<string, number>();
  // Each step fails as often as failsLeft says, then succeeds; every try records the attempt io reported.
  const flaky = defineWorkflow({
    name: "test-flaky",
    payload: z.object({ key: z.string() }),
    concurrencyKey: { field: "key" },
    retries: 2,
    async run(_p, io) {
      for (const step of ["a", "b", "c"]) {
        tries.push({ step, attempt: io.attempt });
        await io.runTask(step, async () => {
          const left = failsLeft.get(step) ?? 0;
          if (left > 0) {
            failsLeft.set(step, left - 1);
            throw new Error(`step ${step} failed`);
          }
        });
      }
    },
  });

  it("counts tries per step, as Inngest does: each step gets its own retries", async () => {
    tries.length = 0;
    failsLeft.clear();
    failsLeft.set("a", 2).set("b", 2).set("c", 1);
    await db.insert(jobs).values({ name: flaky.name, payload: { key: "k" } });
    // With retries: 2, each step may fail twice; counted per job (as before), the fourth failure would end the run.
    await drain(flaky as unknown as Workflow);
    expect(await db.select().from(jobs)).toHaveLength(0);
    const firstTries = tries.filter((t, i) => tries.findIndex((u) => u.step === t.step && u.attempt === t.attempt) === i);
    expect(firstTries).toEqual([
      { step: "a", attempt: 0 },
      { step: "a", attempt: 1 },
      { step: "a", attempt: 2 },
      { step: "b", attempt: 0 },
      { step: "b", attempt: 1 },
      { step: "b", attempt: 2 },
      { step: "c", attempt: 0 },
      { step: "c", attempt: 1 },
    ]);
  });

  it("records a run that fails for good (status failed, the error, a log line) and still runs the next job of its key", async () => {
    tries.length = 0;
    failsLeft.clear();
    failsLeft.set("a", 3);
    await enqueueMany(flaky, [{ payload: { key: "jammed" }, dedupeKey: "flaky:jammed" }], { executor: db });
    const logged = await drain(flaky as unknown as Workflow);
    const [failed] = await db.select().from(jobs);
    expect(failed).toMatchObject({ status: "failed", failures: 3, error: "step a failed" });
    expect(logged.some((l) => l.includes(`[jobs] test-flaky ${failed!.id} failed for good after 3 tries: step a failed`))).toBe(true);

    // The same dedupe and concurrency key: the failed row does not hold them, the next enqueue runs at once.
    await enqueueMany(flaky, [{ payload: { key: "jammed" }, dedupeKey: "flaky:jammed" }], { executor: db });
    await drain(flaky as unknown as Workflow);
    expect((await db.select().from(jobs)).map((j) => j.id)).toEqual([failed!.id]);
    expect(tries.filter((t) => t.step === "c")).toHaveLength(1);
  });

  it("enqueues more runs than one statement can carry (65,535 bind parameters)", async () => {
    const runs = Array.from({ length: 16_000 }, (_, i) => ({ payload: { n: i } }));
    await enqueueMany(twoSteps, runs, { executor: db });
    const [row] = await executeRows<{ n: number }>(db, sql`select count(*)::int as n from ${jobs}`);
    expect(row!.n).toBe(16_000);
    await db.delete(jobs);
  });
});

describe("EmbeddedRunner batches", () => {
  const batches: number[][] = [];
  const alone: number[] = [];
  let failBatchWith: number | null = null;
  let release: (() => void) | null = null;
  // Runs of one key never overlap; runs due together are handed to batch.run at once.
  const summed = defineWorkflow({
    name: "test-batched",
    payload: z.object({ n: z.number() }),
    concurrencyKey: { field: "n" },
    async run({ n }, io) {
      await io.runTask("alone", async () => {
        alone.push(n);
      });
    },
    batch: {
      maxSize: 50,
      async run(payloads, io) {
        await io.runTask("together", async () => {
          const ns = payloads.map((p) => p.n).sort((a, b) => a - b);
          batches.push(ns);
          if (release) await new Promise<void>((r) => (release = r));
          if (failBatchWith !== null && ns.includes(failBatchWith)) throw new Error(`payload ${failBatchWith} is bad`);
        });
      },
    },
  });

  /** Lets the batch that is waiting in batch.run finish; later batches do not wait. */
  const releaseBatch = () => {
    const finish = release as () => void;
    release = null;
    finish();
  };

  beforeEach(() => {
    batches.length = 0;
    alone.length = 0;
    failBatchWith = null;
    release = null;
  });

  it("hands the runs queued together to batch.run at once, maxSize at a time, and deletes them", async () => {
    await enqueueMany(
      summed,
      Array.from({ length: 120 }, (_, n) => ({ payload: { n }, dedupeKey: `summed:${n}` })),
      { executor: db },
    );
    await drain(summed as unknown as Workflow);
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, n) => n));
    expect(alone).toEqual([]);
    expect(await db.select().from(jobs)).toHaveLength(0);
  });

  it("keeps one batch of a workflow running: runs queued meanwhile wait for it and make up the next batch", async () => {
    await enqueueMany(summed, [{ payload: { n: 1 } }], { executor: db });
    release = () => {};
    const runner = new EmbeddedRunner(db, new Map([[summed.name, summed as unknown as Workflow]]), { pollMs: 20, retryBaseMs: 10 });
    await runner.start();
    try {
      while (batches.length === 0) await new Promise((r) => setTimeout(r, 10));
      // The first batch is running: three more runs come in, one of them for the running key.
      await enqueueMany(summed, [{ payload: { n: 1 } }, { payload: { n: 2 } }, { payload: { n: 3 } }], { executor: db });
      await new Promise((r) => setTimeout(r, 200));
      expect(batches).toEqual([[1]]);
      releaseBatch();
      await untilNoJobs();
    } finally {
      await runner.stop();
    }
    expect(batches).toEqual([[1], [1, 2, 3]]);
  });

  it("a wake for a workflow whose batch is running here claims nothing; the batch's end claims what came meanwhile", async () => {
    await enqueueMany(summed, [{ payload: { n: 1 } }], { executor: db });
    release = () => {};
    const runner = new EmbeddedRunner(db, new Map([[summed.name, summed as unknown as Workflow]]), { pollMs: 60_000, retryBaseMs: 10 });
    await runner.start();
    try {
      while (batches.length === 0) await new Promise((r) => setTimeout(r, 10));
      // What a location post does during an evaluation: enqueue, then wake the runner by the workflow's name.
      const before = runner.wakes;
      for (let n = 2; n <= 21; n++) {
        await enqueueMany(summed, [{ payload: { n } }], { executor: db });
        wakeRunner(summed.name);
      }
      expect(runner.wakes).toBe(before);
      // Any other wake (a delivery, the poll) still claims.
      wakeRunner();
      expect(runner.wakes).toBe(before + 1);
      releaseBatch();
      await untilNoJobs();
    } finally {
      if ((release as (() => void) | null) !== null) releaseBatch(); // a failed expectation must not leave stop() waiting
      await runner.stop();
    }
    // With the poll an hour away, only the batch's own end can have claimed the twenty runs.
    expect(batches).toEqual([[1], Array.from({ length: 20 }, (_, i) => i + 2)]);
  });

  it("with lingerMs, a batch starts at most that often: the first at once, the runs that come sooner make up the next", async () => {
    const lingerMs = 1000;
    const started: Array<{ ns: number[]; at: number }> = [];
    const lingering = defineWorkflow({
      name: "test-lingering",
      payload: z.object({ n: z.number() }),
      async run() {
        throw new Error("a lingering batch's runs are not run alone here");
      },
      batch: {
        maxSize: 50,
        lingerMs: () => lingerMs,
        async run(payloads) {
          started.push({ ns: payloads.map((p) => p.n).sort((a, b) => a - b), at: performance.now() });
        },
      },
    });
    const runner = new EmbeddedRunner(db, new Map([[lingering.name, lingering as unknown as Workflow]]), { pollMs: 60_000, retryBaseMs: 10 });
    await runner.start();
    try {
      // At rest: the first post's run starts at once, not a linger later.
      const posted = performance.now();
      await enqueueMany(lingering, [{ payload: { n: 1 } }], { executor: db });
      wakeRunner(lingering.name);
      await untilNoJobs();
      expect(started.map((b) => b.ns)).toEqual([[1]]);
      expect(started[0]!.at - posted).toBeLessThan(lingerMs);
      // Three posts right after it, each with its wake: one batch, once the linger since the first batch is over.
      for (const n of [2, 3, 4]) {
        await enqueueMany(lingering, [{ payload: { n } }], { executor: db });
        wakeRunner(lingering.name);
      }
      await new Promise((r) => setTimeout(r, 100));
      expect(started).toHaveLength(1);
      await untilNoJobs();
      expect(started.map((b) => b.ns)).toEqual([[1], [2, 3, 4]]);
      expect(started[1]!.at - started[0]!.at).toBeGreaterThanOrEqual(lingerMs - 1);
      // The poll and other wakes during a linger do not start the batch early either.
      await enqueueMany(lingering, [{ payload: { n: 5 } }], { executor: db });
      wakeRunner();
      await new Promise((r) => setTimeout(r, 100));
      expect(started).toHaveLength(2);
      await untilNoJobs();
      expect(started.map((b) => b.ns)).toEqual([[1], [2, 3, 4], [5]]);
      expect(started[2]!.at - started[1]!.at).toBeGreaterThanOrEqual(lingerMs - 1);
    } finally {
      await runner.stop();
    }
  });

  it("a wake for a batched workflow claims batches only; another workflow's queued run waits for a wider wake", async () => {
    const ran: number[] = [];
    const plain = recording(ran);
    const runner = new EmbeddedRunner(
      db,
      new Map([
        [summed.name, summed as unknown as Workflow],
        [plain.name, plain as unknown as Workflow],
      ]),
      { pollMs: 60_000, retryBaseMs: 10 },
    );
    await runner.start();
    try {
      await untilNoJobs();
      // The batch will wait in batch.run until released, so its end does not claim anything meanwhile.
      release = () => {};
      await enqueueMany(plain, [{ payload: { n: 7 } }], { executor: db });
      await enqueueMany(summed, [{ payload: { n: 1 } }], { executor: db });
      wakeRunner(summed.name);
      while (batches.length === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      expect(ran).toEqual([]);
      // Any other wake (a delivery, the poll, a run's end) claims the other workflows' queued runs too.
      wakeRunner();
      const deadline = Date.now() + 5_000;
      while (ran.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(ran).toEqual([7]);
      releaseBatch();
      await untilNoJobs();
    } finally {
      if ((release as (() => void) | null) !== null) releaseBatch();
      await runner.stop();
    }
  });

  it("tries each run of a failed batch again on its own; a run enqueued meanwhile with its dedupe key joins it", async () => {
    failBatchWith = 7;
    await enqueueMany(
      summed,
      [5, 6, 7].map((n) => ({ payload: { n }, dedupeKey: `summed:${n}` })),
      { executor: db },
    );
    release = () => {};
    const logged: string[] = [];
    const log = { error: (...a: unknown[]) => logged.push(a.map(String).join(" ")), warn: () => {} };
    const runner = new EmbeddedRunner(db, new Map([[summed.name, summed as unknown as Workflow]]), { pollMs: 20, retryBaseMs: 10, log });
    await runner.start();
    try {
      while (batches.length === 0) await new Promise((r) => setTimeout(r, 10));
      // While the batch runs, another post for 7 queues a run with the same dedupe key.
      await enqueueMany(summed, [{ payload: { n: 7 }, dedupeKey: "summed:7" }], { executor: db });
      releaseBatch();
      await untilNoJobs();
    } finally {
      await runner.stop();
    }
    expect(batches).toEqual([[5, 6, 7]]);
    expect(alone.sort((a, b) => a - b)).toEqual([5, 6, 7]);
    expect(logged.some((l) => l.includes("a batch of 3 test-batched runs failed; each is tried again on its own") && l.includes("payload 7 is bad"))).toBe(true);
    expect(await db.select().from(jobs)).toHaveLength(0);
  });
});

describe("EmbeddedRunner and a run joined by a transaction still open", () => {
  const ran: Array<{ n: number; committed: boolean }> = [];
  let committed = false;
  const joined = defineWorkflow({
    name: "test-joined",
    payload: z.object({ n: z.number() }),
    async run({ n }, io) {
      await io.runTask("work", async () => {
        ran.push({ n, committed });
      });
    },
  });

  it("a run's end claims only when something waits for it, such as a claim that found every slot taken", async () => {
    const ran: number[] = [];
    const plain = recording(ran);
    // Two slots, and the poll an hour away: only wakes and runs' ends claim.
    const runner = new EmbeddedRunner(
      db,
      new Map([
        [plain.name, plain as unknown as Workflow],
        [keyed.name, keyed as unknown as Workflow],
      ]),
      { pollMs: 60_000, retryBaseMs: 10, slots: 2 },
    );
    await runner.start();
    try {
      await untilNoJobs();
      // A lone run (what a delivery is): its end claims nothing.
      await enqueueMany(plain, [{ payload: { n: 1 } }], { executor: db });
      const before = runner.wakes;
      wakeRunner(plain.name);
      await untilNoJobs();
      await new Promise((r) => setTimeout(r, 100));
      expect(runner.wakes).toBe(before + 1);
      // Five runs for two slots: the wake's claim fills both, and each end claims the next.
      await enqueueMany(plain, [2, 3, 4, 5, 6].map((n) => ({ payload: { n } })), { executor: db });
      wakeRunner(plain.name);
      await untilNoJobs();
      expect(ran.sort()).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await runner.stop();
    }
  });

  // Two connections are needed to hold a transaction open beside the runner: Postgres only (PGlite has one).
  it.skipIf(!process.env.DATABASE_URL)("does not start the queued run before the joining transaction commits", async () => {
    ran.length = 0;
    committed = false;
    await enqueueMany(joined, [{ payload: { n: 1 }, dedupeKey: "joined:1" }], { executor: db });
    let commit!: () => void;
    const open = db.transaction(async (tx) => {
      // What a post does: its data, then its run, which joins the queued one (a trackable's evaluation).
      await enqueueMany(joined, [{ payload: { n: 1 }, dedupeKey: "joined:1" }], { executor: tx });
      await new Promise<void>((r) => (commit = r));
    });
    while (!commit) await new Promise((r) => setTimeout(r, 5));
    const runner = new EmbeddedRunner(db, new Map([[joined.name, joined as unknown as Workflow]]), { pollMs: 20 });
    await runner.start();
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(ran).toEqual([]);
      committed = true;
      commit();
      await open;
      await untilNoJobs();
    } finally {
      await runner.stop();
    }
    expect(ran).toEqual([{ n: 1, committed: true }]);
  });
  it("vacuums the jobs table, and the tables given with it, once a hundred runs have ended", async () => {
    const vacuums = async () =>
      (await executeRows<{ relname: string; n: number }>(db, sql`select relname, vacuum_count::int as n from pg_stat_user_tables where relname in ('jobs', 'motion_inbox')`))
        .reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.relname]: r.n }), {});
    const before = await vacuums();
    const ran: number[] = [];
    const wf = recording(ran);
    await enqueueMany(wf, Array.from({ length: 120 }, (_, n) => ({ payload: { n } })));
    const runner = new EmbeddedRunner(db, new Map([[wf.name, wf as unknown as Workflow]]), { pollMs: 20, vacuumEveryMs: 50, vacuumAlso: [motionInbox] });
    await runner.start();
    try {
      const deadline = Date.now() + 15_000;
      let now = before;
      // The statistics reach pg_stat_user_tables a moment after the VACUUM.
      while (!((now.jobs ?? 0) > (before.jobs ?? 0) && (now.motion_inbox ?? 0) > (before.motion_inbox ?? 0)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        now = await vacuums();
      }
      expect(ran).toHaveLength(120);
      expect(now.jobs).toBeGreaterThan(before.jobs ?? 0);
      expect(now.motion_inbox).toBeGreaterThan(before.motion_inbox ?? 0);
    } finally {
      await runner.stop();
    }
  }, 30_000);
});
