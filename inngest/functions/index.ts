import type { Json, StepIO, Workflow } from "@/lib/jobs/types";
import { workflows } from "@/lib/jobs/workflows";
import { inngest } from "../client";

type InngestStep = {
  run: (id: string, fn: () => Promise<unknown>) => Promise<unknown>;
  sleep: (id: string, ms: number) => Promise<void>;
};

/** The StepIO of a workflow, on Inngest's steps. */
export function inngestIO(step: InngestStep): StepIO {
  return {
    // Inngest memoizes a step's JSON result; workflows only return JSON from tasks (StepIO's contract).
    runTask: <T extends Json | void>(id: string, fn: () => Promise<T>) => step.run(id, fn) as Promise<T>,
    sleep: (id, ms) => step.sleep(id, ms),
  };
}

/** A thin Inngest function over a workflow: trigger, per-key concurrency, and the workflow's own code. */
export function toInngestFunction(wf: Workflow) {
  const triggers = wf.schedule ? [{ cron: wf.schedule.cron }] : [{ event: wf.event! }];
  return inngest.createFunction(
    {
      id: wf.name,
      triggers,
      ...(wf.concurrencyKey ? { concurrency: [{ key: `event.data.${wf.concurrencyKey.field}`, limit: 1 }] } : {}),
    },
    async ({ event, step }) => {
      const payload = wf.payload.parse(wf.schedule ? {} : event.data);
      await wf.run(payload, inngestIO(step as unknown as InngestStep));
    },
  );
}

export const functions = workflows.map(toInngestFunction);
