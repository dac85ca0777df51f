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
}

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
  run(payload: z.output<S>, io: StepIO): Promise<void>;
}

export const defineWorkflow = <S extends z.ZodType>(w: Workflow<S>): Workflow<S> => w;
