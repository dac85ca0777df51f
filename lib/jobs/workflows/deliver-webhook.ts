import { z } from "zod";
import { env } from "@/lib/config/env";
import { attemptDelivery, type AttemptOutcome, type AttemptResult } from "@/lib/webhooks/deliveries";
import { defineWorkflow } from "../types";

/**
 * deliver-webhook: one attempt per step, sleeping WEBHOOK_RETRY_DELAYS between them (default 5 s, 30 s, 2 min), or
 * longer when a 429/503 receiver asked for it with Retry-After; after the last failure (or a 410) the delivery is
 * `failed`. Stops at the first 2xx.
 */
export const deliverWebhook = defineWorkflow({
  name: "deliver-webhook",
  event: "fenceline/webhook.deliver",
  payload: z.object({ deliveryId: z.uuid() }),
  async run({ deliveryId }, io) {
    const delays = env().WEBHOOK_RETRY_DELAYS;
    const attempts = delays.length + 1;
    for (let number = 1; number <= attempts; number++) {
      const result = await io.runTask<AttemptResult | AttemptOutcome>(`attempt-${number}`, () => attemptDelivery(deliveryId, number, { final: number === attempts }));
      // A run memoized before attempts reported their wait holds the bare outcome: it waits as scheduled.
      const { outcome, retryInMs } = typeof result === "string" ? { outcome: result, retryInMs: null } : result;
      if (outcome !== "retry") return;
      await io.sleep(`retry-${number}-wait`, retryInMs ?? delays[number - 1]!);
    }
  },
});
