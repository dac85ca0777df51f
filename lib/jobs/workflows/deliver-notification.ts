import { z } from "zod";
import { attemptNotification } from "@/lib/notifications/deliveries";
import { defineWorkflow } from "../types";
import { retryAttempts } from "./retry-loop";

/**
 * deliver-notification: a message to a person's channel on the retry loop webhooks use; stops at the first success,
 * at a final 4xx, or after the last attempt.
 */
export const deliverNotification = defineWorkflow({
  name: "deliver-notification",
  event: "fenceline/notification.deliver",
  payload: z.object({ deliveryId: z.uuid() }),
  async run({ deliveryId }, io) {
    await retryAttempts(io, (number, opts) => attemptNotification(deliveryId, number, opts));
  },
});
