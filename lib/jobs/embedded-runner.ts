import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";
import { jobs, type JobRow } from "@/lib/db/schema";
import { setRunnerWaker } from "./client";
import { DEFAULT_RETRIES, describeError, type Json, type StepIO, type Workflow } from "./types";
import { log } from "@/lib/log/logger";

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
  /**
   * Tables vacuumed with the jobs table: others that every evaluation churns the same way (motion_inbox: a row added
   * with each location post, deleted by its round).
   */
  vacuumAlso?: PgTable[];
  log?: Pick<Console, "error" | "warn">;
}

class Sleeping extends Error {
  constructor(readonly until: number) {
    super("sleeping");
  }
}

/**
 * What a claim looks for, as bits: batches of the batched workflows (a location post's wake), the other workflows'
 * queued runs (a delivery's wake), runs whose runner's lease expired (the poll, the start). Wakes while a claim is
 * under way add up (bitwise or) and make one more claim after it.
 */
const Claim = { Batches: 1, Queued: 2, Expired: 4, Any: 3, All: 7 } as const;
type Claim = number;

/** What a run needs of its job's row. */
type Claimed = Pick<JobRow, "id" | "name" | "payload" | "failures" | "steps" | "concurrencyKey">;

/**
 * A claim: up to $4 jobs matching `due`, in `order`, leased to runner $2 for $1 ms, locked for the claim (SKIP
 * LOCKED: runners never wait for each other); only workflows this process knows ($3: a server of another version
 * may share the database during a rolling deploy), and never a job whose concurrency key another live run holds.
 * The same statement deletes the jobs this runner finished since its last claim ($5, see finish): their concurrency
 * keys are free for this claim, and a finished job costs no statement of its own.
 * Times are the database's (now()), as the jobs' run_at defaults are: with the app's clock, truncated to the
 * millisecond, a job enqueued in the same millisecond as the claim was not due yet. SQL text built once, with the
 * status written out so each claim walks its partial index: the three claims are prepared once per connection and a
 * claim builds no query (drizzle took ~0.1 ms to build one).
 */
const claimSql = (due: string, order: string) => `with finished as (delete from jobs where id = any($5::uuid[]) and locked_by = $2::text)
  update jobs set status = 'running', locked_until = now() + $1::int4 * interval '1 millisecond',
    locked_by = $2::text, updated_at = now()
  where id in (
    select j.id from jobs j
    where ${due} and j.name = any($3::text[]) and j.id <> all($5::uuid[])
      and (j.concurrency_key is null or not exists (
        select 1 from jobs other
        where other.concurrency_key = j.concurrency_key and other.status = 'running' and other.id <> j.id and other.locked_until >= now()
          and other.id <> all($5::uuid[])))
    order by ${order} limit $4::int4
    for update skip locked)
  returning id, name, payload, failures, steps, concurrency_key as "concurrencyKey"`;
/** A batched workflow's ($6) queued first tries. */
const CLAIM_BATCH = claimSql("j.status = 'queued' and j.run_at <= now() and j.name = $6::text and j.failures = 0", "j.run_at");
/** Running jobs whose runner's lease expired (a dead process). */
const CLAIM_EXPIRED = claimSql("j.status = 'running' and j.locked_until < now()", "j.locked_until");
/** Due queued runs, but the first tries of the batched workflows ($6: their batches take those). */
const CLAIM_QUEUED = claimSql("j.status = 'queued' and j.run_at <= now() and (j.name <> all($6::text[]) or j.failures > 0)", "j.run_at");
const DELETE_FINISHED = "delete from jobs where id = any($1::uuid[]) and locked_by = $2::text";
/** How long finished jobs wait for a claim to delete them before a statement of their own does (see finish). */
const FINISHED_FLUSH_MS = 50;

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
  /** The workflows this process knows: the only ones it claims. */
  private readonly names: string[];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly opts: Required<Omit<RunnerOptions, "log">> & { log: Pick<Console, "error" | "warn"> };
  private stopped = true;
  /** The claim in progress (at most one at a time), which stop() waits for. */
  private ticking: Promise<void> | null = null;
  /** What the claims asked for while one was under way look for (Claim bits, 0: none): one more claim after it. */
  private wanted: Claim = 0;
  /** What claims that found no free slot were to look for: claimed when a run ends and frees one. */
  private starved: Claim = 0;
  /** Batched workflows whose wakes were skipped while their batch ran: claimed when that batch ends. */
  private readonly deferred = new Set<string>();
  /** When each batched workflow's last batch started here (performance.now()), for its lingerMs. */
  private readonly batchStarted = new Map<string, number>();
  /** Batched workflows waiting out their lingerMs: the timer that claims their batch. */
  private readonly lingering = new Map<string, NodeJS.Timeout>();
  /** Jobs finished since the last VACUUM. */
  private finished = 0;
  /** Jobs finished here and not deleted yet: the next claim deletes them, or DELETE_FINISHED after FINISHED_FLUSH_MS. */
  private done: string[] = [];
  private doneTimer: NodeJS.Timeout | null = null;
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
      vacuumAlso: opts.vacuumAlso ?? [],
      log: opts.log ?? log,
    };
    this.batched = [...workflows.values()].filter((wf) => wf.batch);
    this.batchedNames = new Set(this.batched.map((wf) => wf.name));
    this.names = [...workflows.keys()];
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
    // The first claim (what was due or orphaned while no runner ran) is done when start() returns: the runs it
    // started go on, and every later wake is counted from a runner at rest.
    this.wake(undefined, Claim.All);
    await this.ticking;
  }

  /** Stops claiming work and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    setRunnerWaker(undefined);
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    for (const t of this.lingering.values()) clearTimeout(t);
    this.lingering.clear();
    // A claim under way may still start runs; then the runs, including those; then what they finished.
    await this.ticking;
    await Promise.allSettled(this.running.values());
    await this.deleteFinished();
  }

  /**
   * Claims and starts due jobs now (coalesced: at most one claim at a time; wakes during it make one more after it),
   * looking only where the wake can have put work. A wake naming a batched workflow (what a location post sends)
   * claims its batch, and nothing while that workflow's batch runs here (the batch's end claims what came meanwhile)
   * or while it lingers (its timer claims).
   * A wake naming another workflow (a delivery enqueued) claims queued runs only; an unnamed one both. Leases that
   * expired (a dead runner's jobs) are looked for by the poll only. A run's end claims only when something waits for
   * it: a wake skipped during its batch, a claim that found no free slot, a run of the concurrency key it held.
   */
  wake(workflow?: string, claim?: Claim): void {
    if (this.stopped) return;
    if (claim === undefined) {
      if (workflow === undefined) claim = Claim.Any;
      else if (!this.batchedNames.has(workflow)) claim = Claim.Queued;
      else if (this.batching.has(workflow)) {
        this.deferred.add(workflow);
        return;
      } else if (this.lingering.has(workflow)) return;
      else claim = Claim.Batches;
    }
    this.wakes++;
    this.wanted |= claim;
    if (this.ticking) return;
    const scope = this.wanted;
    this.wanted = 0;
    this.ticking = this.tick(scope)
      .catch((err: unknown) => this.opts.log.error("[jobs] claiming jobs failed:", err))
      .finally(() => {
        this.ticking = null;
        if (this.wanted !== 0) this.wake(undefined, this.wanted);
      });
  }

  private async tick(scope: Claim): Promise<void> {
    let free = this.opts.slots - this.runs;
    if (this.stopped) return;
    if (free <= 0) {
      this.starved |= scope;
      return;
    }
    const lease = [this.opts.leaseMs, this.id, this.names];
    const claim = async (text: string, limit: number, ...scoped: unknown[]): Promise<Claimed[]> => {
      const done = this.takeFinished();
      try {
        return await queryRows<Claimed>(this.db, text, [...lease, limit, done, ...scoped]);
      } catch (err) {
        // Not deleted: they wait for the next claim.
        this.toDelete(done);
        throw err;
      }
    };
    // First the batched workflows without a batch running here: up to maxSize of their queued first tries, as one run.
    for (const wf of scope & Claim.Batches ? this.batched : []) {
      // Its batch running here: what this claim was for waits for that batch's end (see wake).
      if (this.batching.has(wf.name)) {
        this.deferred.add(wf.name);
        continue;
      }
      // Its lingerMs not over since its last batch started: its timer claims the batch when it is.
      if (this.lingering.has(wf.name) || this.linger(wf)) continue;
      if (free <= 0) {
        this.starved |= Claim.Batches;
        continue;
      }
      const claimed = await claim(CLAIM_BATCH, wf.batch!.maxSize, wf.name);
      const fresh = claimed.filter((job) => !this.running.has(job.id));
      if (fresh.length === 0) continue;
      free--;
      this.batching.add(wf.name);
      this.batchStarted.set(wf.name, performance.now());
      // A full batch may have left runs behind: the batch's end claims again, as after a skipped wake.
      if (claimed.length >= wf.batch!.maxSize) this.deferred.add(wf.name);
      this.launch(fresh, async () => {
        let after: Claim = 0;
        try {
          // A failed batch's runs are queued again at once, each for a try of its own: claimed as queued runs.
          if (!(await this.executeBatch(wf, fresh))) after |= Claim.Queued;
        } finally {
          this.batching.delete(wf.name);
        }
        if (this.deferred.delete(wf.name)) after |= Claim.Batches;
        return after;
      });
    }
    if (!(scope & Claim.Queued)) return;
    if (free <= 0) {
      this.starved |= scope;
      return;
    }
    // Running jobs whose runner's lease expired (a dead process), then due queued jobs in run_at order: two claims,
    // so each walks its own partial index (one OR of both made every claim sort the whole queue).
    const expired = scope & Claim.Expired ? await claim(CLAIM_EXPIRED, free) : [];
    const queued = expired.length < free ? await claim(CLAIM_QUEUED, free - expired.length, this.batched.map((wf) => wf.name)) : [];
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
      // A run of a concurrency key held it: another run of that key, skipped by claims meanwhile, may start now.
      this.launch([job], () => this.execute(job).then(() => (job.concurrencyKey ? Claim.Any : 0)));
    }
    // Every free slot taken: there may be more, claimed as runs end.
    if (claimed.length === free) this.starved |= scope;
  }

  /**
   * Whether a batch of `wf` must wait (its lingerMs since the last batch started here is not over): if so, a timer
   * claims its batch when it is, and the wakes until then join that claim.
   */
  private linger(wf: Workflow): boolean {
    const last = this.batchStarted.get(wf.name);
    const wait = last === undefined ? 0 : last + (wf.batch!.lingerMs?.() ?? 0) - performance.now();
    if (wait <= 0) return false;
    const timer = setTimeout(() => {
      this.lingering.delete(wf.name);
      this.wake(wf.name);
    }, wait);
    timer.unref();
    this.lingering.set(wf.name, timer);
    return true;
  }

  /**
   * Runs `work` for these claimed jobs in one slot, renewing their leases until it ends; then claims what waited for
   * it: what `work` returns (Claim bits), and what claims that found no free slot were to look for.
   */
  private launch(claimed: Claimed[], work: () => Promise<Claim>): void {
    this.runs++;
    const run = work().then(
      (after) => this.ended(claimed, after),
      () => this.ended(claimed, Claim.Any),
    );
    for (const job of claimed) this.running.set(job.id, run);
  }

  private ended(claimed: Claimed[], after: Claim): void {
    for (const job of claimed) this.running.delete(job.id);
    this.runs--;
    const claim = after | this.starved;
    this.starved = 0;
    if (claim !== 0) this.wake(undefined, claim);
  }

  /**
   * Runs a batch of first tries (Workflow.batch) with no memoized steps: a batched workflow's steps must be safe to
   * run again (the evaluation's are: its progress is the cursor it commits). Done, its jobs are deleted; failed, each
   * is queued again at once for a try of its own, so one bad payload never holds the others back.
   */
  private async executeBatch(wf: Workflow, batch: Claimed[]): Promise<boolean> {
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
      this.finish(batch.map((j) => j.id));
      return true;
    } catch (err) {
      this.opts.log.error(`[jobs] a batch of ${batch.length} ${wf.name} runs failed; each is tried again on its own:`, err);
      await this.requeue(
        batch.map((j) => j.id),
        { failures: 1, error: describeError(err).slice(0, 2000), runAt: new Date() },
      );
      return false;
    }
  }

  private async execute(job: Claimed): Promise<void> {
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
      this.finish([job.id]);
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
  private async fail(job: Claimed, message: string, permanent: boolean): Promise<void> {
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

  /**
   * Finished jobs are deleted by the next claim (in its statement), or by a statement of their own FINISHED_FLUSH_MS
   * later when no claim comes first, or at stop(). Until then they stay running under this runner's lease (no claim
   * takes them, and their concurrency keys are free to the claims that delete them); a process that dies meanwhile
   * leaves them to be run again when the lease expires, as when it dies just before a run's last write: every
   * workflow's steps are safe to run again (a delivery that was made is not sent again).
   */
  private finish(ids: string[]): void {
    this.finished += ids.length;
    this.toDelete(ids);
  }

  private toDelete(ids: string[]): void {
    if (ids.length === 0) return;
    this.done.push(...ids);
    if (this.doneTimer) return;
    this.doneTimer = setTimeout(() => void this.deleteFinished(), FINISHED_FLUSH_MS);
    this.doneTimer.unref();
  }

  private takeFinished(): string[] {
    const ids = this.done;
    this.done = [];
    if (this.doneTimer) clearTimeout(this.doneTimer);
    this.doneTimer = null;
    return ids;
  }

  private async deleteFinished(): Promise<void> {
    const ids = this.takeFinished();
    if (ids.length === 0) return;
    await queryRows(this.db, DELETE_FINISHED, [ids, this.id]).catch((err: unknown) => {
      this.opts.log.warn("[jobs] could not delete finished jobs (the next claim will):", err);
      this.done.push(...ids);
    });
  }

  private async vacuum(): Promise<void> {
    if (this.finished < 100 || this.stopped) return;
    this.finished = 0;
    const tables = sql.join([jobs, ...this.opts.vacuumAlso].map((t) => sql`${t}`), sql`, `);
    await this.db.execute(sql`vacuum ${tables}`).catch((err: unknown) => this.opts.log.warn("[jobs] could not vacuum the jobs table:", err));
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
