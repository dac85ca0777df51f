import { z } from "zod";
import { env } from "@/lib/config/env";
import { attemptNotification, type NotificationAttemptResult } from "@/lib/notifications/deliveries";
import { defineWorkflow } from "../types";

/**
 * deliver-notification: a message to a person's channel, retried like a webhook — one attempt per step, sleeping
 * WEBHOOK_RETRY_DELAYS between them (longer when a 429/503 asked with Retry-After); stops at the first success, at a
 * final 4xx, or after the last attempt.
 */
export const deliverNotification = defineWorkflow({
  name: "deliver-notification",
  event: "fenceline/notification.deliver",
  payload: z.object({ deliveryId: z.uuid() }),
  async run({ deliveryId }, io) {
    const delays = env().WEBHOOK_RETRY_DELAYS;
    const attempts = delays.length + 1;
    for (let number = 1; number <= attempts; number++) {
      const { outcome, retryInMs } = await io.runTask<NotificationAttemptResult>(`attempt-${number}`, () =>
        attemptNotification(deliveryId, number, { final: number === attempts }),
      );
      if (outcome !== "retry") return;
      await io.sleep(`retry-${number}-wait`, retryInMs ?? delays[number - 1]!);
    }
  },
});
