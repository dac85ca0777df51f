import { and, eq } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { geofences, webhookDeliveryAttempts, webhooks, type WebhookEvent } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { attemptDelivery, insertDeliveries, type NewDelivery } from "./deliveries";
import { samplePayload } from "@/lib/events/registry";
import { geofenceEventPayload, type LocationPayload } from "@/lib/events/payloads";

/** The beacon of test payloads: UUID-shaped like a real one, and recognisable. */
export const SAMPLE_BEACON = { id: "00000000-0000-4000-8000-000000000000", name: "Sample beacon", type: "device" } as const;
/** The geofence of an account endpoint's geofence.* test (a geofence's own test uses the real one). */
export const SAMPLE_GEOFENCE = { id: "00000000-0000-4000-8000-000000000001", name: "Sample geofence", latitude: 52.52, longitude: 13.405, radius: 100 } as const;

export type TestWebhookResult = { success: true; message: string; deliveryId: string } | { success: false; message: string };

/**
 * One attempt, no retries, recorded as a test. `answer` is what the API answers (the delivery id only on success, as
 * the contract says); `deliveryId` is the recorded delivery either way (the dashboard links a failure to it).
 */
async function sendTest(
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

/**
 * POST /geofences/{id}/test-webhook: one attempt, no retries, recorded in the history as a test. The payload has the
 * real geofence, a sample beacon and a location at the centre.
 */
export async function sendTestWebhook({ ctx, geofenceId, eventType }: { ctx: Ctx; geofenceId: string; eventType: "entry" | "exit" }) {
  const [g] = await ctx.db
    .select()
    .from(geofences)
    .where(and(eq(geofences.id, geofenceId), eq(geofences.accountId, ctx.account.id)))
    .limit(1);
  if (!g) throw notFound("Geofence", geofenceId);
  if (g.notificationType !== "webhook" || !g.webhookUrl) {
    throw new ApiError("invalid_request", 'Webhook notifications are not enabled for this geofence: set notificationType to "webhook" and a webhookUrl');
  }
  const event = eventType === "entry" ? "geofence.entry" : "geofence.exit";
  const payload = geofenceEventPayload(event, g, SAMPLE_BEACON, sampleLocation(g));
  return sendTest(ctx, { event, url: g.webhookUrl, secret: g.webhookSecret, payload, geofenceId: g.id }, eventType);
}

const sampleLocation = (at: { latitude: number; longitude: number }): LocationPayload => ({
  latitude: at.latitude,
  longitude: at.longitude,
  accuracy: 5,
  timestamp: new Date().toISOString(),
});

/**
 * POST /webhooks/{id}/test: one attempt of a sample `event` to the account endpoint (enabled or not, subscribed to
 * the kind or not: it is what the user asked to try), recorded as a test. Same answers as test-webhook.
 */
export async function sendEndpointTest({ ctx, webhookId, event }: { ctx: Ctx; webhookId: string; event: WebhookEvent }) {
  const [w] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.accountId, ctx.account.id)))
    .limit(1);
  if (!w) throw notFound("Webhook", webhookId);
  return sendTest(ctx, { event, url: w.url, secret: w.secret, payload: samplePayload(event, { beacon: SAMPLE_BEACON, geofence: SAMPLE_GEOFENCE, location: sampleLocation(SAMPLE_GEOFENCE) }), webhookId: w.id }, event);
}
