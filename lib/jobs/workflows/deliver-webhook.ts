import { z } from "zod";
import { env } from "@/lib/config/env";
import { attemptDelivery } from "@/lib/webhooks/deliveries";
import { defineWorkflow } from "../types";

/**
 * deliver-webhook: one attempt per step, sleeping WEBHOOK_RETRY_DELAYS between them (default 5 s, 30 s, 2 min);
 * after the last failure the delivery is `failed`. Stops at the first 2xx.
 */
export const deliverWebhook = defineWorkflow({
  name: "deliver-webhook",
  event: "fenceline/webhook.deliver",
  payload: z.object({ deliveryId: z.uuid() }),
  async run({ deliveryId }, io) {
    const delays = env().WEBHOOK_RETRY_DELAYS;
    const attempts = delays.length + 1;
    for (let number = 1; number <= attempts; number++) {
      const outcome = await io.runTask(`attempt-${number}`, () => attemptDelivery(deliveryId, number, { final: number === attempts }));
      if (outcome !== "retry") return;
      await io.sleep(`retry-${number}-wait`, delays[number - 1]!);
    }
  },
});
