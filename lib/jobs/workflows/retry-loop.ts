import { env } from "@/lib/config/env";
import type { StepIO } from "../types";

/** What one attempt reports: "retry" asks for another after `retryInMs` (a receiver's Retry-After) or the schedule's delay. */
export type AttemptReport = { outcome: string; retryInMs: number | null };

/**
 * The retry loop webhooks and notifications share: one attempt per step, sleeping WEBHOOK_RETRY_DELAYS between them
 * (default 5 s, 30 s, 2 min), or longer when a 429/503 receiver asked for it with Retry-After; it stops at the first
 * outcome other than "retry", and the last attempt is told it is final. Step ids (`attempt-N`, `retry-N-wait`) are
 * what runs already memoized hold: they must not change.
 */
export async function retryAttempts(
  io: StepIO,
  attempt: (number: number, opts: { final: boolean }) => Promise<AttemptReport | string>,
): Promise<void> {
  const delays = env().WEBHOOK_RETRY_DELAYS;
  const attempts = delays.length + 1;
  for (let number = 1; number <= attempts; number++) {
    const result = await io.runTask<AttemptReport | string>(`attempt-${number}`, () => attempt(number, { final: number === attempts }));
    // A run memoized before attempts reported their wait holds the bare outcome: it waits as scheduled.
    const { outcome, retryInMs } = typeof result === "string" ? { outcome: result, retryInMs: null } : result;
    if (outcome !== "retry") return;
    await io.sleep(`retry-${number}-wait`, retryInMs ?? delays[number - 1]!);
  }
}
