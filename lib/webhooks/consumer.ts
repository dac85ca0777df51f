import type { EventConsumer } from "@/lib/events/consumers";
import { EVENTS } from "@/lib/events/registry";
import { fanOut, wakeDeliveries } from "./fan-out";

/**
 * Webhooks as a consumer of events: in the recording transaction, each event becomes a delivery per target (the
 * geofence's own webhook and every subscribed endpoint) with its workflow enqueued; after the commit, this process's
 * runner is woken to send them.
 */
export const webhookConsumer: EventConsumer = {
  name: "webhooks",
  wants(type, account, { endpoints }) {
    if (!EVENTS.deliveredOn(type, account.plan)) return false;
    // Without the endpoints at hand, assume a subscriber (fanOut reads them and finds out).
    return !endpoints || endpoints.some((e) => e.accountId === account.id && (e.events as readonly string[]).includes(type));
  },
  consume: (tx, account, events, { endpoints }) => fanOut(tx, account, events, endpoints),
  committed: () => wakeDeliveries(),
};
