import type { z } from "zod";

/** JSON a step may return: what both Inngest and the embedded runner can memoize. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * What every workflow receives to make itself durable (Documenso's `io`): a step runs at most once per successful
 * completion and its result is memoized; a sleep survives restarts. Inngest implements it with step.run/step.sleep;
 * the embedded runner with the jobs table.
 */
export interface StepIO {
  runTask<T extends Json | void>(id: string, fn: () => Promise<T>): Promise<T>;
  sleep(id: string, ms: number): Promise<void>;
  /**
   * Failed tries of the step about to run, as Inngest's `attempt`: 0 on the first, reset when a step completes.
   * A workflow may change what its next try does (the evaluation shrinks its round).
   */
  readonly attempt: number;
  /** Tries a step gets before the run fails for good (1 + the workflow's retries). */
  readonly maxAttempts: number;
}

/** Retries of a failed step when a workflow sets none (Inngest's `retries`; the embedded runner uses the same). */
export const DEFAULT_RETRIES = 7;

export interface Workflow<S extends z.ZodType = z.ZodType> {
  /** Function id (Inngest) and job name (embedded). */
  name: string;
  /** The event that starts it; a cron workflow has none and is started by the scheduler. */
  event?: string;
  /** Inngest cron expression / embedded interval for scheduled workflows. */
  schedule?: { cron: string; everyMs: () => number };
  payload: S;
  /** Runs with the same key never overlap (Inngest concurrency key, embedded concurrency_key). */
  concurrencyKey?: { field: keyof z.output<S> & string };
  /** Retries of a failed step (a thrown error, not a webhook failure), with back-off; DEFAULT_RETRIES when unset. */
  retries?: number;
  run(payload: z.output<S>, io: StepIO): Promise<void>;
  /**
   * Runs that are due together are run as one: `batch.run` receives up to `maxSize` payloads (Inngest's batchEvents;
   * the embedded runner claims that many queued runs at once and keeps one batch of the workflow running per process,
   * so the runs that come in meanwhile make up the next batch). When a batch fails, the embedded runner tries its runs
   * again one by one with `run`; on Inngest, `batch.run` sees the step's `attempt` and does so itself.
   */
  batch?: {
    maxSize: number;
    /**
     * Embedded runner: a batch starts at most this often (ms): a wake that comes sooner after the last batch's start
     * waits out the rest, and the runs that come in meanwhile join its batch (Kafka's linger.ms, Inngest's batch
     * timeout). Under load every batch's fixed cost is shared by more runs; at rest a run waits for nothing.
     */
    lingerMs?: () => number;
    run(payloads: Array<z.output<S>>, io: StepIO): Promise<void>;
  };
}

export const defineWorkflow = <S extends z.ZodType>(w: Workflow<S>): Workflow<S> => w;

/**
 * What went wrong, for a log line or the jobs table: the innermost cause first (a driver's "poisoned point", not
 * drizzle's "Failed query: <the whole statement>"), then the outer messages.
 */
export function describeError(err: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    messages.unshift(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return messages.join(" ← ");
}
