import { and, arrayContains, eq } from "drizzle-orm";
import type { AccountRef } from "@/lib/context";
import { DEFAULT_ROWS_PER_STATEMENT } from "@/lib/db/chunks";
import type { Executor, Tx } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { webhooks } from "@/lib/db/schema";
import type { Endpoint, RecordedEvent } from "@/lib/events/produced";
import { EVENTS } from "@/lib/events/registry";
import { enqueueMany, wakeRunner } from "@/lib/jobs/client";
import { deliverWebhook } from "@/lib/jobs/workflows/deliver-webhook";
import { insertDeliveries, type NewDelivery } from "./deliveries";
import { activePrevious } from "./rotation";

export type { Endpoint };

/** After a commit that enqueued deliveries: tells this process's embedded runner to claim them (and nothing else). */
export function wakeDeliveries(): void {
  wakeRunner(deliverWebhook.name);
}

/** Deliveries written (and workflows started) per step of a fan-out: what it holds in memory at once. */
const DELIVERIES_PER_WRITE = DEFAULT_ROWS_PER_STATEMENT;

/**
 * Turns events into deliveries — to the geofence's own webhook and to every enabled account endpoint subscribed to
 * the kind — and starts their deliver-webhook workflows, all in the caller's transaction. Each delivery carries its
 * event's id (none for location.updated, which is not recorded); an event without a payload is not sent. The events × endpoints
 * product is walked lazily and written DELIVERIES_PER_WRITE rows at a time, so memory stays bounded whatever the
 * number of events and endpoints. Only the types the registry delivers on the account's plan are sent. `known`: the
 * account's enabled endpoints, when the caller has read them in this transaction. Each batch's deliveries and workflow
 * starts are written by statements issued together (the delivery ids are made here), one round trip.
 */
export async function fanOut(tx: Tx, account: AccountRef, all: readonly RecordedEvent[], known?: Endpoint[]): Promise<number> {
  const events = all.filter((e) => e.payload !== null && EVENTS.deliveredOn(e.type, account.plan));
  if (events.length === 0) return 0;
  const endpoints =
    known ??
    (await tx
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.accountId, account.id), eq(webhooks.enabled, true))));
  let total = 0;
  let batch: NewDelivery[] = [];
  const flush = async () => {
    const deliveries = batch.map((d) => ({ ...d, id: newId() }));
    batch = [];
    await Promise.all([
      insertDeliveries(tx, deliveries),
      enqueueMany(
        deliverWebhook,
        deliveries.map((d) => ({ payload: { deliveryId: d.id }, eventId: `deliver-${d.id}` })),
        { executor: tx },
      ),
    ]);
    total += deliveries.length;
  };
  for (const row of deliveryRows(account, events, endpoints)) {
    batch.push(row);
    if (batch.length >= DELIVERIES_PER_WRITE) await flush();
  }
  if (batch.length > 0) await flush();
  return total;
}

/** The deliveries of the events, one at a time, in event order. */
function* deliveryRows(account: AccountRef, events: readonly RecordedEvent[], endpoints: Endpoint[]): Generator<NewDelivery> {
  const now = new Date();
  const previousOf = new Map(endpoints.map((e) => [e.id, activePrevious(e.previousSecret, e.previousSecretExpiresAt, now)]));
  for (const e of events) {
    const base = { accountId: account.id, event: e.type, payload: e.payload!, trackableId: e.trackableId, geofenceId: e.geofence?.id ?? null, eventId: e.id };
    const g = e.geofence;
    if (g?.notificationType === "webhook" && g.webhookUrl) {
      // The producer's previous secret (from the fence cache) is checked for expiry here; without one it is looked up.
      const previous = g.previousSecret === undefined ? undefined : activePrevious(g.previousSecret?.secret ?? null, g.previousSecret?.expiresAt ?? null, now);
      yield { ...base, url: g.webhookUrl, secret: g.webhookSecret, previous };
    }
    for (const endpoint of endpoints) {
      if (endpoint.events.includes(e.type)) yield { ...base, url: endpoint.url, secret: endpoint.secret, webhookId: endpoint.id, previous: previousOf.get(endpoint.id)! };
    }
  }
}

/**
 * How many deliveries each location makes through its location.updated event: the account's enabled endpoints
 * subscribed to it (0 off the enterprise plan). The evaluation sizes its rounds with it.
 */
export async function locationSubscribers(executor: Executor, account: AccountRef): Promise<number> {
  if (account.plan !== "enterprise") return 0;
  const rows = await executor
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.accountId, account.id), eq(webhooks.enabled, true), arrayContains(webhooks.events, ["location.updated"])));
  return rows.length;
}
