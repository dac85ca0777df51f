import type { Executor } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";

// Deletes what each account keeps no longer (its retention settings, lib/accounts/account-settings.ts), in bounded
// batches: every statement deletes at most RETENTION_BATCH rows and commits on its own, so no lock is held long and
// the API keeps answering while a large history goes. Each trackable's newest location is always kept (its last
// position, the geofence state and share links rest on it). Webhook deliveries take their attempts with them (the
// attempts' foreign key cascades); events leave the deliveries made from them (their event_id goes null).

export const RETENTION_BATCH = 5_000;
const DAY_MS = 86_400_000;

/** The instant before which rows are deleted: `days` whole days before `now`. Rows at the cutoff itself are kept. */
export const retentionCutoff = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY_MS);

/**
 * Whether the retention job deletes a location, given the trackable's newest one (the greatest timestamp, then id):
 * older than the cutoff, and not the newest. The rule the SQL below implements, stated once for its test.
 */
export function locationExpires(loc: { id: string; timestamp: Date }, newest: { id: string; timestamp: Date }, cutoff: Date): boolean {
  const isNewest = loc.timestamp.getTime() === newest.timestamp.getTime() && loc.id === newest.id;
  return loc.timestamp.getTime() < cutoff.getTime() && !isNewest;
}

/** The smallest UUIDv7 of the millisecond `at`: every id made before `at` sorts below it. */
export function uuidV7Floor(at: Date): string {
  const hex = Math.max(0, at.getTime()).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

// One trackable's expired locations, at most $3 of them, its newest (timestamp, id) excluded: one range scan of
// locations_trackable_ts_idx below the cutoff.
const DELETE_LOCATIONS = `delete from locations where id in (
      select l.id from locations l
      where l.trackable_id = $1::uuid and l.timestamp < $2::timestamptz
        and (l.timestamp, l.id) < (select n.timestamp, n.id from locations n where n.trackable_id = $1::uuid
                                   order by n.timestamp desc, n.id desc limit 1)
      limit $3::int4)`;

// An account's events before the cutoff (events_account_occurred_idx).
const DELETE_EVENTS = `delete from events where id in (
      select id from events where account_id = $1::uuid and occurred_at < $2::timestamptz limit $3::int4)`;

// An account's finished deliveries made before the cutoff, found by their time-ordered ids (webhook_deliveries_account_id_idx).
const DELETE_DELIVERIES = `delete from webhook_deliveries where id in (
      select id from webhook_deliveries where account_id = $1::uuid and id < $4::uuid and created_at < $2::timestamptz
        and status <> 'pending' limit $3::int4)`;

/** Runs `statement` until a batch deletes fewer than the batch size; the rows deleted. */
async function inBatches(db: Executor, statement: string, params: unknown[], batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ n: number }>(db, `with gone as (${statement} returning 1) select count(*)::int4 as n from gone`, params);
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < batch) return total;
  }
}

export interface RetentionResult {
  locations: number;
  events: number;
  deliveries: number;
}

/** One pass over every account with a retention setting; what it deleted. */
export async function applyRetention({ now = new Date(), db, batch = RETENTION_BATCH }: { now?: Date; db?: Executor; batch?: number } = {}): Promise<RetentionResult> {
  const ex = db ?? (await getDb());
  const result: RetentionResult = { locations: 0, events: 0, deliveries: 0 };
  const settings = await queryRows<{ id: string; locationDays: number | null; eventDays: number | null; deliveryDays: number | null }>(
    ex,
    `select id, location_retention_days as "locationDays", event_retention_days as "eventDays", delivery_retention_days as "deliveryDays"
     from accounts where location_retention_days is not null or event_retention_days is not null or delivery_retention_days is not null`,
    [],
  );
  for (const account of settings) {
    if (account.locationDays !== null) {
      const cutoff = retentionCutoff(now, account.locationDays).toISOString();
      const tracked = await queryRows<{ id: string }>(ex, "select id from trackables where account_id = $1::uuid", [account.id]);
      for (const t of tracked) result.locations += await inBatches(ex, DELETE_LOCATIONS, [t.id, cutoff, batch], batch);
    }
    if (account.eventDays !== null) {
      const cutoff = retentionCutoff(now, account.eventDays).toISOString();
      result.events += await inBatches(ex, DELETE_EVENTS, [account.id, cutoff, batch], batch);
    }
    if (account.deliveryDays !== null) {
      const cutoff = retentionCutoff(now, account.deliveryDays);
      result.deliveries += await inBatches(ex, DELETE_DELIVERIES, [account.id, cutoff.toISOString(), batch, uuidV7Floor(cutoff)], batch);
    }
  }
  return result;
}

