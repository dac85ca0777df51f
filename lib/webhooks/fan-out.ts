import { and, eq } from "drizzle-orm";
import type { AccountRef } from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { webhooks, type WebhookEvent } from "@/lib/db/schema";
import { enqueueMany } from "@/lib/jobs/client";
import { deliverWebhook } from "@/lib/jobs/workflows/deliver-webhook";
import { insertDeliveries, type NewDelivery } from "./deliveries";

export interface OutgoingEvent {
  event: WebhookEvent;
  payload: Record<string, unknown>;
  trackableId: string;
  /** The recorded event this delivers (none for location.updated). */
  eventId?: string;
  /** For geofence.entry/exit: the geofence, whose own webhook (when it has one) receives the event too. */
  geofence?: { id: string; notificationType: string; webhookUrl: string | null; webhookSecret: string | null };
}

/**
 * Turns events into deliveries — to the geofence's own webhook and to every enabled account endpoint subscribed to
 * the kind — and starts their deliver-webhook workflows, all in the caller's transaction. Webhooks are an enterprise
 * feature: on any other plan nothing is sent.
 */
export async function fanOut(tx: Tx, account: AccountRef, events: OutgoingEvent[]): Promise<number> {
  if (account.plan !== "enterprise" || events.length === 0) return 0;
  const endpoints = await tx
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, account.id), eq(webhooks.enabled, true)));
  const rows: NewDelivery[] = [];
  for (const e of events) {
    const base = { accountId: account.id, event: e.event, payload: e.payload, trackableId: e.trackableId, geofenceId: e.geofence?.id ?? null, eventId: e.eventId ?? null };
    if (e.geofence?.notificationType === "webhook" && e.geofence.webhookUrl) {
      rows.push({ ...base, url: e.geofence.webhookUrl, secret: e.geofence.webhookSecret });
    }
    for (const endpoint of endpoints) {
      if (endpoint.events.includes(e.event)) rows.push({ ...base, url: endpoint.url, secret: endpoint.secret, webhookId: endpoint.id });
    }
  }
  const deliveries = await insertDeliveries(tx, rows);
  await enqueueMany(
    deliverWebhook,
    deliveries.map((d) => ({ payload: { deliveryId: d.id }, eventId: `deliver-${d.id}` })),
    { executor: tx },
  );
  return deliveries.length;
}
