import { eq, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { webhooks } from "@/lib/db/schema";

/**
 * After a (non-test) delivery to an account endpoint ended: a success clears its run of failures; a failure adds to
 * it, and the WEBHOOK_DISABLE_AFTER_FAILURES-th in a row switches the endpoint off (`failing`); a 410 switches it off
 * at once (`gone`). One statement, so deliveries ending at the same time count exactly. An endpoint already off
 * (by the user or the service) keeps its state.
 */
export async function recordEndpointOutcome(webhookId: string, outcome: "succeeded" | "failed" | "gone"): Promise<void> {
  const db = await getDb();
  if (outcome === "succeeded") {
    await db.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, webhookId));
    return;
  }
  const limit = env().WEBHOOK_DISABLE_AFTER_FAILURES;
  const failures = sql`${webhooks.consecutiveFailures} + 1`;
  const switchOff =
    outcome === "gone" ? sql`${webhooks.enabled}` : limit > 0 ? sql`(${webhooks.enabled} and ${failures} >= ${limit})` : sql`false`;
  await db
    .update(webhooks)
    .set({
      consecutiveFailures: failures,
      enabled: sql`case when ${switchOff} then false else ${webhooks.enabled} end`,
      disabledAt: sql`case when ${switchOff} then now() else ${webhooks.disabledAt} end`,
      disabledReason: sql`case when ${switchOff} then ${outcome === "gone" ? "gone" : "failing"} else ${webhooks.disabledReason} end`,
      updatedAt: sql`case when ${switchOff} then now() else ${webhooks.updatedAt} end`,
    })
    .where(eq(webhooks.id, webhookId));
}
