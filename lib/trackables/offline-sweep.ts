import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { accounts, trackableStates, trackables } from "@/lib/db/schema";
import { beaconOf } from "@/lib/events/payloads";
import { eventsCommitted, recordEvents, type Recording } from "@/lib/events/record";
import { statusChanged } from "./device-events";

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
    const { count, recordings } = await db.transaction(async (tx) => {
      const stale = await tx
        .select({ trackableId: trackableStates.trackableId, accountId: trackables.accountId, name: trackables.name, type: trackables.type, plan: accounts.plan })
        .from(trackableStates)
        .innerJoin(trackables, eq(trackables.id, trackableStates.trackableId))
        .innerJoin(accounts, eq(accounts.id, trackables.accountId))
        .where(and(eq(trackableStates.status, "online"), lt(trackableStates.lastSeenAt, cutoff)))
        .limit(SWEEP_BATCH)
        .for("update", { of: trackableStates, skipLocked: true });
      if (stale.length === 0) return { count: 0, recordings: [] };
      await tx
        .update(trackableStates)
        .set({ status: "offline", updatedAt: sql`now()` })
        .where(inArray(trackableStates.trackableId, stale.map((s) => s.trackableId)));
      const recordings: Recording[] = [];
      const byAccount = new Map<string, typeof stale>();
      for (const s of stale) byAccount.set(s.accountId, [...(byAccount.get(s.accountId) ?? []), s]);
      for (const [accountId, rows] of byAccount) {
        const events = rows.map((r) => statusChanged(beaconOf({ id: r.trackableId, name: r.name, type: r.type }), "online", "offline", now));
        recordings.push(await recordEvents(tx, { id: accountId, plan: rows[0]!.plan }, events));
      }
      return { count: stale.length, recordings };
    });
    eventsCommitted(...recordings);
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}
