import { z } from "zod";
import { attemptDelivery } from "@/lib/webhooks/deliveries";
import { defineWorkflow } from "../types";
import { retryAttempts } from "./retry-loop";

/**
 * deliver-webhook: attempts on the shared retry loop (WEBHOOK_RETRY_DELAYS, Retry-After honoured); after the last
 * failure (or a 410) the delivery is `failed`. Stops at the first 2xx.
 */
export const deliverWebhook = defineWorkflow({
  name: "deliver-webhook",
  event: "fenceline/webhook.deliver",
  payload: z.object({ deliveryId: z.uuid() }),
  async run({ deliveryId }, io) {
    await retryAttempts(io, (number, opts) => attemptDelivery(deliveryId, number, opts));
  },
});
