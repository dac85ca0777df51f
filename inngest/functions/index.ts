import { DEFAULT_RETRIES, describeError, type Json, type StepIO, type Workflow } from "@/lib/jobs/types";
import { workflows } from "@/lib/jobs/workflows";
import { inngest } from "../client";

type InngestStep = {
  run: (id: string, fn: () => Promise<unknown>) => Promise<unknown>;
  sleep: (id: string, ms: number) => Promise<void>;
};

/** Inngest's allowed values of `retries`. */
type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/** The StepIO of a workflow, on Inngest's steps; `attempt` is Inngest's (per step, reset when a step completes). */
export function inngestIO(step: InngestStep, tries: { attempt: number; maxAttempts: number }): StepIO {
  return {
    // Inngest memoizes a step's JSON result; workflows only return JSON from tasks (StepIO's contract).
    runTask: <T extends Json | void>(id: string, fn: () => Promise<T>) => step.run(id, fn) as Promise<T>,
    sleep: (id, ms) => step.sleep(id, ms),
    attempt: tries.attempt,
    maxAttempts: tries.maxAttempts,
  };
}

/**
 * A thin Inngest function over a workflow: trigger, per-key concurrency or batching, the workflow's retries, and a failure
 * handler that says in the log which run failed for good (Inngest keeps the run and its error; later events start
 * new runs, which nothing blocks).
 */
export function toInngestFunction(wf: Workflow) {
  const triggers = wf.schedule ? [{ cron: wf.schedule.cron }] : [{ event: wf.event! }];
  const retries = (wf.retries ?? DEFAULT_RETRIES) as Retries;
  return inngest.createFunction(
    {
      id: wf.name,
      triggers,
      retries,
      // A batched workflow receives the events due within a second together (up to its maxSize); a batch holds many
      // keys, so its per-key concurrency is left to the workflow's own database locks (the evaluation's state rows).
      ...(wf.batch
        ? { batchEvents: { maxSize: wf.batch.maxSize, timeout: "1s" } }
        : wf.concurrencyKey
          ? { concurrency: [{ key: `event.data.${wf.concurrencyKey.field}`, limit: 1 }] }
          : {}),
      onFailure: ({ event, error }) => {
        console.error(
          `[jobs] ${wf.name} failed for good after ${retries + 1} tries: ${describeError(error).slice(0, 2000)} ` +
            `(payload ${JSON.stringify(event.data.event.data ?? {})}; later runs are not blocked)`,
        );
      },
    },
    async ({ event, events, step, attempt, maxAttempts }) => {
      const io = inngestIO(step as unknown as InngestStep, { attempt, maxAttempts: maxAttempts ?? retries + 1 });
      if (wf.batch) return wf.batch.run(events.map((e) => wf.payload.parse(e.data)), io);
      await wf.run(wf.payload.parse(wf.schedule ? {} : event.data), io);
    },
  );
}

export const functions = workflows.map(toInngestFunction);
