import { and, asc, desc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { exec, type Ctx } from "@/lib/context";
import {
  accounts,
  deviceTokens,
  events,
  geofences,
  geofenceTrackables,
  imports,
  locations,
  notificationChannels,
  notificationDeliveries,
  notificationDeliveryAttempts,
  notificationRules,
  privacyZones,
  shareLinks,
  trackables,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhooks,
  type EventRow,
  type LocationRow,
} from "@/lib/db/schema";
import { serializeAccount } from "@/lib/accounts/account-settings";
import { listAccountMembers } from "@/lib/accounts/accounts";
import { serializeDeviceToken } from "@/lib/devices/tokens";
import { serializeEvent } from "@/lib/events/events";
import { serializeGeofence } from "@/lib/geofences/geofences";
import { occupantCounts } from "@/lib/geofences/occupancy";
import { serializeImport } from "@/lib/imports/imports";
import { serializeLocation } from "@/lib/locations/serialize";
import { serializeNotificationDelivery } from "@/lib/notifications/delivery-log";
import { serializeChannel } from "@/lib/notifications/notification-channels";
import { serializeRule } from "@/lib/notifications/rules";
import { serializePrivacyZone } from "@/lib/privacy-zones/privacy-zones";
import { serializeTrackable } from "@/lib/trackables/trackables";
import type { Trackable } from "@/lib/trackables/schemas";
import { serializeDelivery } from "@/lib/webhooks/delivery-history";
import { serializeWebhook } from "@/lib/webhooks/webhooks";
import type { ExportResource } from "./schemas";

/** Rows read a query at a time: memory holds one page, and each page is an index range scan. */
export const EXPORT_PAGE = 5_000;

type Lines = AsyncGenerator<unknown, void, undefined>;
type AccountTable = PgTable & { id: PgColumn; accountId: PgColumn };

/**
 * Each resource's lines, in the API's own shapes (the same serializers, so what the API never returns — secrets,
 * tokens, password hashes — is never written). Every read is keyset-paged by an indexed key of the account.
 */
export const EXPORT_LINES: Record<ExportResource, (ctx: Ctx) => Lines> = {
  account: async function* (ctx) {
    const [row] = await exec(ctx).select().from(accounts).where(eq(accounts.id, ctx.account.id));
    if (row) yield { ...serializeAccount(row), createdAt: row.createdAt.toISOString() };
  },
  members: async function* (ctx) {
    for (const m of await listAccountMembers({ ctx })) {
      yield { ...m, createdAt: m.createdAt.toISOString(), lastSignInAt: m.lastSignInAt?.toISOString() ?? null };
    }
  },
  trackables: (ctx) =>
    pages(accountRows(ctx, trackables), (rows) =>
      // Without lastLocation: the history is in locations.jsonl.
      rows.map((row) => omitLastLocation(serializeTrackable(row, null))),
    ),
  locations: async function* (ctx) {
    for await (const trackableId of trackableIds(ctx)) yield* locationsOf(ctx, trackableId);
  },
  "device-tokens": async function* (ctx) {
    for await (const trackableId of trackableIds(ctx)) {
      yield* pages(
        (after) =>
          exec(ctx)
            .select()
            .from(deviceTokens)
            .where(and(eq(deviceTokens.trackableId, trackableId), after ? gt(deviceTokens.id, after) : undefined))
            .orderBy(asc(deviceTokens.id))
            .limit(EXPORT_PAGE),
        (rows) => rows.map(serializeDeviceToken),
      );
    }
  },
  geofences: (ctx) =>
    pages(accountRows(ctx, geofences), async (rows) => {
      const ids = rows.map((r) => r.id);
      const assigned = ids.length
        ? await exec(ctx).select().from(geofenceTrackables).where(inArray(geofenceTrackables.geofenceId, ids))
        : [];
      const counts = await occupantCounts(ctx, ids);
      return rows.map((row) =>
        serializeGeofence(
          row,
          assigned.filter((a) => a.geofenceId === row.id).map((a) => a.trackableId),
          counts.get(row.id) ?? 0,
        ),
      );
    }),
  webhooks: (ctx) => pages(accountRows(ctx, webhooks), (rows) => rows.map(serializeWebhook)),
  events: (ctx) => eventLines(ctx),
  "webhook-deliveries": (ctx) =>
    pages(accountRows(ctx, webhookDeliveries), async (rows) => {
      const ids = rows.map((r) => r.id);
      const attempts = ids.length
        ? await exec(ctx).select().from(webhookDeliveryAttempts).where(inArray(webhookDeliveryAttempts.deliveryId, ids))
        : [];
      return rows.map((row) => serializeDelivery(row, attempts));
    }),
  // The API's shape carries the public URL, which holds the token: the export keeps everything but that.
  "share-links": (ctx) =>
    pages(accountRows(ctx, shareLinks), (rows) =>
      rows.map((row) => ({
        id: row.id,
        trackableId: row.trackableId,
        name: row.name,
        expiresAt: row.expiresAt?.toISOString() ?? null,
        revokedAt: row.revokedAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
      })),
    ),
  "notification-channels": (ctx) => pages(accountRows(ctx, notificationChannels), (rows) => rows.map(serializeChannel)),
  "notification-rules": (ctx) => pages(accountRows(ctx, notificationRules), (rows) => rows.map(serializeRule)),
  "notification-deliveries": (ctx) =>
    pages(accountRows(ctx, notificationDeliveries), async (rows) => {
      const ids = rows.map((r) => r.id);
      const attempts = ids.length
        ? await exec(ctx)
            .select()
            .from(notificationDeliveryAttempts)
            .where(inArray(notificationDeliveryAttempts.deliveryId, ids))
            .orderBy(asc(notificationDeliveryAttempts.number))
        : [];
      return rows.map((row) => serializeNotificationDelivery(row, attempts.filter((a) => a.deliveryId === row.id)));
    }),
  "privacy-zones": (ctx) => pages(accountRows(ctx, privacyZones), (rows) => rows.map(serializePrivacyZone)),
  imports: (ctx) => pages(accountRows(ctx, imports), (rows) => rows.map(serializeImport)),
};

function omitLastLocation(trackable: Trackable): Omit<Trackable, "lastLocation"> {
  const rest: Partial<Trackable> = { ...trackable };
  delete rest.lastLocation;
  return rest as Omit<Trackable, "lastLocation">;
}

/** Reads page after page (`fetch(after)` returns the rows after the id `after`, oldest first) and yields each line. */
async function* pages<R extends { id: string }>(
  fetch: (after: string | null) => Promise<R[]>,
  serialize: (rows: R[]) => unknown[] | Promise<unknown[]>,
): Lines {
  let after: string | null = null;
  for (;;) {
    const rows = await fetch(after);
    yield* await serialize(rows);
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** A page of a table with account_id, by (account_id, id): every such table has that index. */
function accountRows<T extends AccountTable>(ctx: Ctx, table: T) {
  return async (after: string | null): Promise<T["$inferSelect"][]> => {
    const where: SQL | undefined = and(eq(table.accountId, ctx.account.id), after ? gt(table.id, after) : undefined);
    const rows = await exec(ctx)
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(asc(table.id))
      .limit(EXPORT_PAGE);
    return rows as T["$inferSelect"][];
  };
}

async function* trackableIds(ctx: Ctx): AsyncGenerator<string, void, undefined> {
  const read = accountRows(ctx, trackables);
  let after: string | null = null;
  for (;;) {
    const rows = await read(after);
    for (const row of rows) yield row.id;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** A trackable's history, oldest first, by (timestamp, id): locations_trackable_ts_idx. */
async function* locationsOf(ctx: Ctx, trackableId: string): Lines {
  let after: { timestamp: Date; id: string } | null = null;
  for (;;) {
    const rows: LocationRow[] = await exec(ctx)
      .select()
      .from(locations)
      .where(
        and(
          eq(locations.trackableId, trackableId),
          after ? sql`(${locations.timestamp}, ${locations.id}) > (${after.timestamp.toISOString()}::timestamptz, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(locations.timestamp), asc(locations.id))
      .limit(EXPORT_PAGE);
    yield* rows.map(serializeLocation);
    if (rows.length < EXPORT_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { timestamp: last.timestamp, id: last.id };
  }
}

/** The account's events, newest first, by (occurred_at, id): events_account_occurred_idx. */
async function* eventLines(ctx: Ctx): Lines {
  let before: { occurredAt: Date; id: string } | null = null;
  for (;;) {
    const rows: EventRow[] = await exec(ctx)
      .select()
      .from(events)
      .where(
        and(
          eq(events.accountId, ctx.account.id),
          before ? sql`(${events.occurredAt}, ${events.id}) < (${before.occurredAt.toISOString()}::timestamptz, ${before.id}::uuid)` : undefined,
        ),
      )
      .orderBy(desc(events.occurredAt), desc(events.id))
      .limit(EXPORT_PAGE);
    yield* rows.map(serializeEvent);
    if (rows.length < EXPORT_PAGE) return;
    const last = rows[rows.length - 1]!;
    before = { occurredAt: last.occurredAt, id: last.id };
  }
}
