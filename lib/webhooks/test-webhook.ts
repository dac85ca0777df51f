import { eq } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { webhookDeliveryAttempts, type WebhookEvent } from "@/lib/db/schema";
import type { LocationPayload } from "@/lib/events/payloads";
import { samplePayload } from "@/lib/events/registry";
import { ApiError } from "@/lib/http/errors";
import { attemptDelivery, insertDeliveries, type NewDelivery } from "./deliveries";
import { kindOf, requireTarget, type TargetRef } from "./targets";

/** The beacon of test payloads: UUID-shaped like a real one, and recognisable. */
export const SAMPLE_BEACON = { id: "00000000-0000-4000-8000-000000000000", name: "Sample beacon", type: "device" } as const;
/** The geofence of an account endpoint's geofence.* test (a geofence's own test uses the real one). */
export const SAMPLE_GEOFENCE = { id: "00000000-0000-4000-8000-000000000001", name: "Sample geofence", latitude: 52.52, longitude: 13.405, radius: 100 } as const;

export type TestWebhookResult = { success: true; message: string; deliveryId: string } | { success: false; message: string };

/**
 * One attempt, no retries, recorded as a test. `answer` is what the API answers (the delivery id only on success, as
 * the contract says); `deliveryId` is the recorded delivery either way (the dashboard links a failure to it).
 */
async function attemptTest(
  ctx: Ctx,
  delivery: Omit<NewDelivery, "accountId" | "test">,
  label: string,
): Promise<{ answer: TestWebhookResult; deliveryId: string }> {
  const [row] = await insertDeliveries(ctx.db, [{ ...delivery, accountId: ctx.account.id, test: true }]);
  const deliveryId = row!.id;
  const { outcome } = await attemptDelivery(deliveryId, 1, { final: true });
  if (outcome === "succeeded") return { answer: { success: true, message: `Test webhook sent for ${label} event`, deliveryId }, deliveryId };
  const [attempt] = await ctx.db.select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.deliveryId, deliveryId)).limit(1);
  const reason = attempt?.error ?? "the endpoint did not answer with a 2xx status";
  return { answer: { success: false, message: `Test webhook for ${label} event failed (${reason}). Check your endpoint configuration.` }, deliveryId };
}

const sampleLocation = (at: { latitude: number; longitude: number }): LocationPayload => ({
  latitude: at.latitude,
  longitude: at.longitude,
  accuracy: 5,
  timestamp: new Date().toISOString(),
});

/**
 * POST /webhooks/{id}/test and /geofences/{id}/test-webhook: one attempt of a sample `event` to the target, no
 * retries, recorded in the history as a test. The payload has a sample beacon, the target's own geofence (a
 * geofence's webhook) or a sample one (an account endpoint), and a location at that geofence's centre. An endpoint is
 * tried enabled or not, subscribed to the kind or not: it is what the user asked to try.
 */
export async function sendTest({ ctx, target, event }: { ctx: Ctx; target: TargetRef; event: WebhookEvent }) {
  const to = await requireTarget(ctx.db, ctx.account.id, target);
  const { kind } = kindOf(target);
  const refusal = kind.testRefusal(to);
  if (refusal || !to.url) throw new ApiError("invalid_request", refusal ?? "This target has no URL to send to");
  const geofence = to.geofence ?? SAMPLE_GEOFENCE;
  const payload = samplePayload(event, { beacon: SAMPLE_BEACON, geofence, location: sampleLocation(geofence) });
  return attemptTest(ctx, { event, url: to.url, secret: to.secret, payload, ...to.ref }, kind.testLabel(event));
}
