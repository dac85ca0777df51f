import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/db/ids";
import { events, geofences, locations, trackables, webhookDeliveries, webhooks } from "@/lib/db/schema";
import { evaluateTrackable } from "@/lib/geofences/evaluate-trackable";
import { deleteGeofence } from "@/lib/geofences/geofences";
import { sweepOfflineDevices } from "@/lib/trackables/offline-sweep";
import { openUnitDb } from "@/tests/support/unit-db";
import { getEvent } from "./events";
import type { RecordedEvent } from "./produced";
import { onEventsCommitted } from "./record";
import { EVENTS } from "./registry";

// Every producer (evaluation, the offline sweep, a synthetic transition) hands its events to lib/events, which records
// them with their payloads; a hook registered for after the commit sees each recorded event exactly once, and the
// stored payload is exactly what the webhooks received.

let unit: Awaited<ReturnType<typeof openUnitDb>>;

beforeAll(async () => {
  delete process.env.INNGEST_DEV;
  unit = await openUnitDb("record");
}, 120_000);

afterAll(async () => unit?.close());

const T0 = Date.parse("2026-11-25T08:00:00.000Z");

describe("recording events", () => {
  it("a commit hook sees every recorded event once; the log keeps each payload as delivered", async () => {
    const seen: RecordedEvent[] = [];
    const off = onEventsCommitted((committed) => seen.push(...committed));
    try {
      const ctx = await unit.account("enterprise");
      const accountId = ctx.account.id;
      await unit.db.insert(webhooks).values({ accountId, url: "https://hooks.example.com/all", events: [...EVENTS.deliverable] });
      const [fence] = await unit.db
        .insert(geofences)
        .values({ accountId, name: "Depot", latitude: 1, longitude: 1, radius: 500, notificationType: "webhook", webhookUrl: "https://hooks.example.com/depot" })
        .returning();
      const [t] = await unit.db.insert(trackables).values({ accountId, name: "Van" }).returning();
      // Out, in (with a low battery), out, in: it comes online, enters twice, leaves once, and its battery falls.
      const walk = [0.98, 1, 0.98, 1].map((latitude, i) => ({
        id: newId(),
        trackableId: t!.id,
        latitude,
        longitude: 1,
        accuracy: 5,
        battery: i === 1 ? 10 : 80,
        timestamp: new Date(T0 + i * 2000),
        receivedAt: new Date(),
      }));
      await unit.db.insert(locations).values(walk);
      while ((await evaluateTrackable(t!.id)).more);
      await sweepOfflineDevices(new Date(Date.now() + 86_400_000));
      await deleteGeofence({ ctx, id: fence!.id });

      const rows = await unit.db.select().from(events).where(eq(events.accountId, accountId));
      expect(rows.map((r) => r.type).sort()).toEqual([
        "battery.low",
        "device.status_changed",
        "device.status_changed",
        "geofence.entry",
        "geofence.entry",
        "geofence.exit",
        "geofence.exit",
        // The walk jumps 2 km between fixes: a trip (lib/motion) starts.
        "trip.started",
      ]);
      const mine = seen.filter((e) => e.accountId === accountId);
      expect(mine.map((e) => e.id).sort()).toEqual(rows.map((r) => r.id).sort());
      expect(new Set(mine.map((e) => e.id)).size).toBe(mine.length);

      // Each delivery of a recorded event carries the bytes stored with it; location.updated is delivered, not kept.
      const deliveries = await unit.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId));
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const d of deliveries) {
        if (d.event === "location.updated") {
          expect(d.eventId).toBeNull();
          continue;
        }
        expect(JSON.stringify(byId.get(d.eventId!)!.payload), d.event).toBe(JSON.stringify(d.payload));
      }
      expect(deliveries.filter((d) => d.event === "location.updated")).toHaveLength(4);
      // Entries and exits go to the fence's own webhook as well as the endpoint.
      expect(deliveries.filter((d) => d.url === "https://hooks.example.com/depot").map((d) => d.event).sort()).toEqual([
        "geofence.entry",
        "geofence.entry",
        "geofence.exit",
        "geofence.exit",
      ]);

      const statuses = await Promise.all(rows.filter((r) => r.type === "device.status_changed").map((r) => getEvent({ ctx, id: r.id })));
      expect(statuses.map((e) => e.status).sort((a, b) => a!.current.localeCompare(b!.current))).toEqual([
        { previous: "online", current: "offline" },
        { previous: "offline", current: "online" },
      ]);
    } finally {
      off();
    }
  });
});
