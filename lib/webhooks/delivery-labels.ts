import { and, eq, inArray } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { geofences, trackables, webhooks } from "@/lib/db/schema";
import type { Delivery } from "./delivery-schemas";

/** Human names for the ids of a page of deliveries: what the history table shows instead of UUIDs. */
export interface DeliveryLabels {
  geofences: Record<string, string>;
  webhooks: Record<string, { url: string; description: string }>;
  trackables: Record<string, string>;
}

const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

/**
 * The current names of the geofences, webhook endpoints and trackables the given deliveries refer to, scoped to the
 * account (three small queries, whatever the page size). Ids whose object is gone are simply absent.
 */
export async function labelDeliveries({ ctx, deliveries }: { ctx: Ctx; deliveries: Pick<Delivery, "geofenceId" | "webhookId" | "trackableId">[] }): Promise<DeliveryLabels> {
  const geofenceIds = unique(deliveries.map((d) => d.geofenceId));
  const webhookIds = unique(deliveries.map((d) => d.webhookId));
  const trackableIds = unique(deliveries.map((d) => d.trackableId));
  const accountId = ctx.account.id;
  // One after the other: ctx may be a transaction, which runs one statement at a time anyway.
  const g =
    geofenceIds.length === 0
      ? []
      : await exec(ctx)
          .select({ id: geofences.id, name: geofences.name })
          .from(geofences)
          .where(and(eq(geofences.accountId, accountId), inArray(geofences.id, geofenceIds)));
  const w =
    webhookIds.length === 0
      ? []
      : await exec(ctx)
          .select({ id: webhooks.id, url: webhooks.url, description: webhooks.description })
          .from(webhooks)
          .where(and(eq(webhooks.accountId, accountId), inArray(webhooks.id, webhookIds)));
  const t =
    trackableIds.length === 0
      ? []
      : await exec(ctx)
          .select({ id: trackables.id, name: trackables.name })
          .from(trackables)
          .where(and(eq(trackables.accountId, accountId), inArray(trackables.id, trackableIds)));
  return {
    geofences: Object.fromEntries(g.map((r) => [r.id, r.name])),
    webhooks: Object.fromEntries(w.map((r) => [r.id, { url: r.url, description: r.description }])),
    trackables: Object.fromEntries(t.map((r) => [r.id, r.name])),
  };
}
