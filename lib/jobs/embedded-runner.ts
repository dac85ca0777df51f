import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notExists, notInArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import { jobs, type JobRow } from "@/lib/db/schema";
import { setRunnerWaker } from "./client";
import { DEFAULT_RETRIES, describeError, type Json, type StepIO, type Workflow } from "./types";

export interface RunnerOptions {
  /** Jobs run at once by this process (a slow receiver holds one slot, never the others). */
  slots?: number;
  /**
   * How long a claimed job is ours (15 s); renewed every third of it while it runs, so another runner takes over the
   * jobs of a process that died within one lease (plus a poll).
   */
  leaseMs?: number;
  /** Poll interval for due jobs (sleeps that end, jobs enqueued by other processes). */
  pollMs?: number;
  /** Back-off before the first retry of a failed step (1 s); it doubles with each further failure, up to 5 min. */
  retryBaseMs?: number;
  /** Requeue every running job at start: only safe when no other runner shares the database (embedded PGlite). */
  recoverAllOnStart?: boolean;
  /**
   * VACUUM the jobs table this often while jobs are finishing (0: never). PGlite runs no autovacuum, and every job
   * leaves dead rows behind (insert, claim, delete), which slow the claim query down as they pile up.
   */
  vacuumEveryMs?: number;
  log?: Pick<Console, "error" | "warn">;
}

class Sleeping extends Error {
  constructor(readonly until: number) {
    super("sleeping");
  }
}

/**
 * How widely a claim looks: batches of the batched workflows only (a location post's wake); also the other
 * workflows' queued runs (any other wake, a run's end); also runs whose runner's lease expired (the poll, the start).
 */
const Claim = { Batches: 0, Queued: 1, All: 2 } as const;
type Claim = (typeof Claim)[keyof typeof Claim];
const widest = (a: Claim | null, b: Claim): Claim => (a === null || b > a ? b : a);

/**
 * Runs workflows durably from the jobs table (the default install, without Inngest). A run replays its workflow from
 * the top: completed steps return their memoized result, an unfinished sleep reschedules the job. State lives only in
 * the database, so a process that dies loses nothing: its jobs are claimed again when their lease expires (at once
 * on restart with the embedded database, which no other process can share).
 */
export class EmbeddedRunner {
  private readonly id = `runner-${process.pid}-${randomUUID().slice(0, 8)}`;
  /** Every job this process runs, by id (a batch's jobs share its promise): their leases are renewed. */
  private readonly running = new Map<string, Promise<void>>();
  /** Runs in progress (a batch is one run): what takes the slots. */
  private runs = 0;
  /** Workflows with a batch running in this process: their queued runs wait for it and make up the next batch. */
  private readonly batching = new Set<string>();
  private readonly batched: Workflow[];
  private readonly batchedNames: Set<string>;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly opts: Required<Omit<RunnerOptions, "log">> & { log: Pick<Console, "error" | "warn"> };
  private stopped = true;
  /** The claim in progress (at most one at a time), which stop() waits for. */
  private ticking: Promise<void> | null = null;
  /** The widest claim asked for while one was under way (see Claim), or null: it runs when that one ends. */
  private wanted: Claim | null = null;
  /** Jobs finished since the last VACUUM. */
  private finished = 0;
  /** Wakes that led to a claim (or joined one under way): what the tests read to see a wake skipped. */
  wakes = 0;

  constructor(
    private readonly db: Db,
    private readonly workflows: Map<string, Workflow>,
    opts: RunnerOptions = {},
  ) {
    this.opts = {
      slots: opts.slots ?? 32,
      leaseMs: opts.leaseMs ?? 15_000,
      pollMs: opts.pollMs ?? 250,
      retryBaseMs: opts.retryBaseMs ?? 1000,
      recoverAllOnStart: opts.recoverAllOnStart ?? false,
      vacuumEveryMs: opts.vacuumEveryMs ?? 0,
      log: opts.log ?? console,
    };
    this.batched = [...workflows.values()].filter((wf) => wf.batch);
    this.batchedNames = new Set(this.batched.map((wf) => wf.name));
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (this.opts.recoverAllOnStart) {
      // Their leases are ended rather than the jobs requeued: a queued job may share an orphan's dedupe key (a post
      // that came in during its evaluation), and two queued jobs with one key break the unique index.
      await this.db.update(jobs).set({ lockedUntil: new Date(0), lockedBy: null }).where(eq(jobs.status, "running"));
    }
    setRunnerWaker((workflow) => this.wake(workflow));
    this.timers.push(setInterval(() => this.wake(undefined, Claim.All), this.opts.pollMs));
    this.timers.push(setInterval(() => void this.renewLeases(), Math.max(1000, this.opts.leaseMs / 3)));
    if (this.opts.vacuumEveryMs > 0) this.timers.push(setInterval(() => void this.vacuum(), this.opts.vacuumEveryMs));
    for (const wf of this.workflows.values()) {
      if (wf.schedule) this.timers.push(setInterval(() => void this.runScheduled(wf), wf.schedule.everyMs()));
    }
    for (const t of this.timers) t.unref();
    this.wake(undefined, Claim.All);
  }

  /** Stops claiming work and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    setRunnerWaker(undefined);
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    // A claim under way may still start runs; then the runs, including those.
    await this.ticking;
    await Promise.allSettled(this.running.values());
  }

  /**
   * Claims and starts due jobs now (coalesced: at most one claim at a time; wakes during it make one more after it),
   * as widely as the wake needs. A wake for a batched workflow (what a location post sends) claims only batches, and
   * none while that workflow's batch runs here: the batch's end looks for work (launch), and the runs queued meanwhile
   * make up the next batch. Leases that expired (a dead runner's jobs) are looked for by the poll only. Before, every
   * location post started all three claims, which during an evaluation found nothing, back to back while posts came in.
   */
  wake(workflow?: string, claim: Claim = Claim.Queued): void {
    if (this.stopped) return;
    if (workflow !== undefined && this.batchedNames.has(workflow)) {
      if (this.batching.has(workflow)) return;
      claim = Claim.Batches;
    }
    this.wakes++;
    this.wanted = widest(this.wanted, claim);
    if (this.ticking) return;
    const scope = this.wanted;
    this.wanted = null;
    this.ticking = this.tick(scope)
      .catch((err: unknown) => this.opts.log.error("[jobs] claiming jobs failed:", err))
      .finally(() => {
        this.ticking = null;
        if (this.wanted !== null) this.wake(undefined, this.wanted);
      });
  }

  private async tick(scope: Claim): Promise<void> {
    let free = this.opts.slots - this.runs;
    if (free <= 0 || this.stopped) return;
    const now = new Date();
    const lease = { status: "running" as const, lockedBy: this.id, lockedUntil: new Date(now.getTime() + this.opts.leaseMs), updatedAt: now };
    // First the batched workflows without a batch running here: up to maxSize of their queued first tries, as one run.
    for (const wf of this.batched) {
      if (free <= 0 || this.batching.has(wf.name)) continue;
      const due = and(eq(jobs.status, "queued"), lte(jobs.runAt, now), eq(jobs.name, wf.name), eq(jobs.failures, 0))!;
      const claimed = await this.db.update(jobs).set(lease).where(inArray(jobs.id, this.claimable(due, jobs.runAt, wf.batch!.maxSize, now))).returning();
      const fresh = claimed.filter((job) => !this.running.has(job.id));
      if (fresh.length === 0) continue;
      free--;
      this.batching.add(wf.name);
      this.launch(fresh, () => this.executeBatch(wf, fresh).finally(() => this.batching.delete(wf.name)));
    }
    if (free <= 0 || scope === Claim.Batches) return;
    // Running jobs whose runner's lease expired (a dead process), then due queued jobs in run_at order: two claims,
    // so each walks its own partial index (one OR of both made every claim sort the whole queue).
    const expired =
      scope === Claim.All
        ? await this.db
            .update(jobs)
            .set(lease)
            .where(inArray(jobs.id, this.claimable(and(eq(jobs.status, "running"), lt(jobs.lockedUntil, now))!, jobs.lockedUntil, free, now)))
            .returning()
        : [];
    const queued =
      expired.length < free
        ? await this.db
            .update(jobs)
            .set(lease)
            .where(inArray(jobs.id, this.claimable(and(eq(jobs.status, "queued"), lte(jobs.runAt, now), this.notBatched())!, jobs.runAt, free - expired.length, now)))
            .returning()
        : [];
    const claimed = [...expired, ...queued];
    const seenKeys = new Set<string>();
    for (const job of claimed) {
      // Our own run, whose lease ran out before a renewal got through (PGlite queues every query behind a long
      // transaction): it is still running here, and the claim has just renewed its lease.
      if (this.running.has(job.id)) continue;
      // Two queued jobs of one key claimed together: run one, put the other back.
      if (job.concurrencyKey && seenKeys.has(job.concurrencyKey)) {
        await this.db.update(jobs).set({ status: "queued", lockedBy: null, lockedUntil: null }).where(eq(jobs.id, job.id));
        continue;
      }
      if (job.concurrencyKey) seenKeys.add(job.concurrencyKey);
      this.launch([job], () => this.execute(job));
    }
    if (claimed.length === free) this.wanted = widest(this.wanted, scope);
  }

  /** Runs `work` for these claimed jobs in one slot, renewing their leases until it ends, then looks for more work. */
  private launch(claimed: JobRow[], work: () => Promise<void>): void {
    this.runs++;
    const run = work().finally(() => {
      for (const job of claimed) this.running.delete(job.id);
      this.runs--;
      this.wake();
    });
    for (const job of claimed) this.running.set(job.id, run);
  }

  /** Queued jobs the one-by-one claim takes: not the first tries of batched workflows (their batch takes those). */
  private notBatched(): SQL | undefined {
    if (this.batched.length === 0) return undefined;
    return or(
      notInArray(
        jobs.name,
        this.batched.map((wf) => wf.name),
      ),
      gt(jobs.failures, 0),
    );
  }

  /**
   * Runs a batch of first tries (Workflow.batch) with no memoized steps: a batched workflow's steps must be safe to
   * run again (the evaluation's are: its progress is the cursor it commits). Done, its jobs are deleted; failed, each
   * is queued again at once for a try of its own, so one bad payload never holds the others back.
   */
  private async executeBatch(wf: Workflow, batch: JobRow[]): Promise<void> {
    const mine = and(
      inArray(
        jobs.id,
        batch.map((j) => j.id),
      ),
      eq(jobs.lockedBy, this.id),
    );
    const io: StepIO = {
      runTask: (_id, fn) => fn(),
      sleep: async () => {
        throw new Error(`batched workflow ${wf.name} cannot sleep`);
      },
      attempt: 0,
      maxAttempts: 1 + (wf.retries ?? DEFAULT_RETRIES),
    };
    try {
      await wf.batch!.run(
        batch.map((job) => wf.payload.parse(job.payload)),
        io,
      );
      await this.db.delete(jobs).where(mine);
      this.finished += batch.length;
    } catch (err) {
      this.opts.log.error(`[jobs] a batch of ${batch.length} ${wf.name} runs failed; each is tried again on its own:`, err);
      await this.requeue(
        batch.map((j) => j.id),
        { failures: 1, error: describeError(err).slice(0, 2000), runAt: new Date() },
      );
    }
  }

  /**
   * Ids of up to `limit` jobs matching `due`, in `order`, locked for the claim (SKIP LOCKED: runners never wait for
   * each other); only workflows this process knows (a server of another version may share the database during a
   * rolling deploy), and never a job whose concurrency key another live run holds.
   */
  private claimable(due: SQL, order: AnyColumn, limit: number, now: Date) {
    const other = alias(jobs, "other");
    return this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          due,
          inArray(jobs.name, [...this.workflows.keys()]),
          or(
            isNull(jobs.concurrencyKey),
            notExists(
              this.db
                .select({ one: sql`1` })
                .from(other)
                .where(and(eq(other.concurrencyKey, jobs.concurrencyKey), eq(other.status, "running"), ne(other.id, jobs.id), gte(other.lockedUntil, now))),
            ),
          ),
        ),
      )
      .orderBy(asc(order))
      .limit(limit)
      .for("update", { skipLocked: true });
  }

  private async execute(job: JobRow): Promise<void> {
    const wf = this.workflows.get(job.name)!;
    const steps: Record<string, unknown> = { ...job.steps };
    // A completed step's result is written before the next step starts (or with the sleep, or not at all when the
    // run ends and its row is deleted): the memo is durable before anything that follows it happens, one write fewer.
    let unsaved = false;
    // A step completed in this run: the failures counted so far were of that step (Inngest counts tries per step).
    let progressed = false;
    const maxAttempts = 1 + (wf.retries ?? DEFAULT_RETRIES);
    const persistSteps = async () => {
      if (!unsaved) return;
      await this.db.update(jobs).set({ steps, updatedAt: new Date() }).where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
      unsaved = false;
    };
    const io: StepIO = {
      runTask: async <T extends Json | void>(id: string, fn: () => Promise<T>): Promise<T> => {
        const key = `task:${id}`;
        if (key in steps) return steps[key] as T;
        await persistSteps();
        const result = await fn();
        steps[key] = result === undefined ? null : result;
        unsaved = true;
        progressed = true;
        return result;
      },
      sleep: async (id: string, ms: number) => {
        const key = `sleep:${id}`;
        const until = typeof steps[key] === "number" ? (steps[key] as number) : Date.now() + ms;
        if (!(key in steps)) {
          steps[key] = until;
          unsaved = true;
          progressed = true;
        }
        if (Date.now() >= until) return;
        throw new Sleeping(until);
      },
      get attempt() {
        return progressed ? 0 : job.failures;
      },
      maxAttempts,
    };
    try {
      const payload = wf.payload.parse(job.payload);
      await wf.run(payload, io);
      await this.db.delete(jobs).where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
      this.finished++;
    } catch (err) {
      if (err instanceof Sleeping) {
        await this.db
          .update(jobs)
          .set({
            status: "queued",
            runAt: new Date(err.until),
            steps,
            failures: progressed ? 0 : job.failures,
            lockedBy: null,
            lockedUntil: null,
            updatedAt: new Date(),
          })
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
        return;
      }
      const failures = (progressed ? 0 : job.failures) + 1;
      this.opts.log.error(`[jobs] ${job.name} ${job.id} failed (try ${failures} of ${maxAttempts}):`, err);
      await this.fail({ ...job, steps, failures: failures - 1 }, describeError(err), failures >= maxAttempts);
    }
  }

  /**
   * A run that threw: retried with exponential back-off (1 s, 2 s, 4 s … 5 min) or, when `permanent` (the step's
   * last try), marked failed for good. A failed row keeps its error and blocks nothing: its
   * dedupe key only applies to queued jobs, so the next enqueue (the next location of a trackable) starts a new run.
   */
  private async fail(job: JobRow, message: string, permanent: boolean): Promise<void> {
    const failures = job.failures + 1;
    if (permanent) {
      this.opts.log.error(
        `[jobs] ${job.name} ${job.id} failed for good after ${failures} ${failures === 1 ? "try" : "tries"}: ${message} ` +
          `(payload ${JSON.stringify(job.payload)}; kept in the jobs table with status "failed"; later runs are not blocked)`,
      );
    }
    const retry = {
      failures,
      error: message.slice(0, 2000),
      steps: job.steps,
      runAt: new Date(Date.now() + Math.min(300_000, this.opts.retryBaseMs * 2 ** (failures - 1))),
    };
    if (!permanent) return this.requeue([job.id], retry);
    await this.db
      .update(jobs)
      .set({ ...retry, status: "failed", lockedBy: null, lockedUntil: null, updatedAt: new Date() })
      .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
  }

  /**
   * Puts our running jobs back in the queue with `set`. A run enqueued meanwhile with the same dedupe key (a post
   * during a failed evaluation) is joined to them, as enqueue() would have done had they been queued: two queued jobs
   * with one key would break the unique index, and a deduplicated run's work is the same whichever row carries it.
   */
  private async requeue(ids: string[], set: Partial<Pick<JobRow, "failures" | "error" | "steps" | "runAt">>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const keys = tx.select({ key: jobs.dedupeKey }).from(jobs).where(and(inArray(jobs.id, ids), isNotNull(jobs.dedupeKey)));
      await tx.delete(jobs).where(and(eq(jobs.status, "queued"), inArray(jobs.dedupeKey, keys), notInArray(jobs.id, ids)));
      await tx
        .update(jobs)
        .set({ ...set, status: "queued", lockedBy: null, lockedUntil: null, updatedAt: new Date() })
        .where(and(inArray(jobs.id, ids), eq(jobs.lockedBy, this.id)));
    });
  }

  private async vacuum(): Promise<void> {
    if (this.finished < 100 || this.stopped) return;
    this.finished = 0;
    await this.db.execute(sql`vacuum ${jobs}`).catch((err: unknown) => this.opts.log.warn("[jobs] could not vacuum the jobs table:", err));
  }

  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    await this.db
      .update(jobs)
      .set({ lockedUntil: new Date(Date.now() + this.opts.leaseMs) })
      .where(and(inArray(jobs.id, [...this.running.keys()]), eq(jobs.lockedBy, this.id)))
      .catch((err: unknown) => this.opts.log.warn("[jobs] could not renew leases:", err));
  }

  /** Scheduled workflows (the offline sweep) run inline on a timer; they are idempotent and short. */
  private async runScheduled(wf: Workflow): Promise<void> {
    if (this.stopped) return;
    const io: StepIO = {
      runTask: (_id, fn) => fn(),
      sleep: async () => {
        throw new Error("scheduled workflows cannot sleep");
      },
      attempt: 0,
      maxAttempts: 1,
    };
    try {
      await wf.run(wf.payload.parse({}), io);
    } catch (err) {
      this.opts.log.error(`[jobs] scheduled ${wf.name} failed:`, err);
    }
  }
}
