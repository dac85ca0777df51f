import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { accounts, trackableStates, trackables } from "@/lib/db/schema";
import { recordAndDeliver, type Happening } from "@/lib/events/events";
import { beaconOf, statusChangedPayload } from "@/lib/webhooks/payloads";
import { wakeDeliveries } from "@/lib/webhooks/fan-out";

const SWEEP_BATCH = 500;

/**
 * Marks online devices offline after DEVICE_OFFLINE_AFTER_S without a location, emitting device.status_changed.
 * Rows are claimed with SKIP LOCKED, so sweeps on several servers (or beside an evaluation) never emit one twice.
 */
export async function sweepOfflineDevices(now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - env().DEVICE_OFFLINE_AFTER_S * 1000);
  let total = 0;
  for (;;) {
    const { count, deliveries } = await db.transaction(async (tx) => {
      const stale = await tx
        .select({ trackableId: trackableStates.trackableId, accountId: trackables.accountId, name: trackables.name, type: trackables.type, plan: accounts.plan })
        .from(trackableStates)
        .innerJoin(trackables, eq(trackables.id, trackableStates.trackableId))
        .innerJoin(accounts, eq(accounts.id, trackables.accountId))
        .where(and(eq(trackableStates.status, "online"), lt(trackableStates.lastSeenAt, cutoff)))
        .limit(SWEEP_BATCH)
        .for("update", { of: trackableStates, skipLocked: true });
      if (stale.length === 0) return { count: 0, deliveries: 0 };
      await tx
        .update(trackableStates)
        .set({ status: "offline", updatedAt: sql`now()` })
        .where(inArray(trackableStates.trackableId, stale.map((s) => s.trackableId)));
      let deliveries = 0;
      const byAccount = new Map<string, typeof stale>();
      for (const s of stale) byAccount.set(s.accountId, [...(byAccount.get(s.accountId) ?? []), s]);
      for (const [accountId, rows] of byAccount) {
        const events: Happening[] = rows.map((r) => ({
          record: { type: "device.status_changed", trackableId: r.trackableId, occurredAt: now },
          outgoing: {
            event: "device.status_changed",
            trackableId: r.trackableId,
            payload: statusChangedPayload(beaconOf({ id: r.trackableId, name: r.name, type: r.type }), now, "online", "offline"),
          },
        }));
        deliveries += await recordAndDeliver(tx, { id: accountId, plan: rows[0]!.plan }, events);
      }
      return { count: stale.length, deliveries };
    });
    if (deliveries > 0) wakeDeliveries();
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}
