import { and, eq } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { geofences, webhookDeliveryAttempts } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { attemptDelivery, insertDeliveries } from "./deliveries";
import { geofenceEventPayload } from "./payloads";

/** The beacon of test payloads: UUID-shaped like a real one, and recognisable. */
export const SAMPLE_BEACON = { id: "00000000-0000-4000-8000-000000000000", name: "Sample beacon", type: "device" } as const;

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
  const payload = geofenceEventPayload(event, g, SAMPLE_BEACON, {
    latitude: g.latitude,
    longitude: g.longitude,
    accuracy: 5,
    timestamp: new Date().toISOString(),
  });
  const [delivery] = await insertDeliveries(ctx.db, [
    { accountId: ctx.account.id, event, url: g.webhookUrl, secret: g.webhookSecret, payload, geofenceId: g.id, test: true },
  ]);
  const outcome = await attemptDelivery(delivery!.id, 1, { final: true });
  if (outcome === "succeeded") return { success: true, message: `Test webhook sent for ${eventType} event`, deliveryId: delivery!.id };
  const [attempt] = await ctx.db.select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.deliveryId, delivery!.id)).limit(1);
  const reason = attempt?.error ?? "the endpoint did not answer with a 2xx status";
  return { success: false, message: `Test webhook for ${eventType} event failed (${reason}). Check your endpoint configuration.` };
}
