import { randomBytes } from "node:crypto";
import { count, eq, inArray, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { openUnitDb } from "@/tests/support/unit-db";
import { deleteWorkspace } from "./accounts";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("delete-workspace");
  db = unit.db;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

// Every table of the schema; `jobs` holds the embedded runner's work, which belongs to no account.
const TABLES = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
const NOT_ACCOUNT_DATA = new Set(["jobs"]);

async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await db.select({ n: count() }).from(table);
    out[getTableConfig(table).name] = row!.n;
  }
  return out;
}

const hex = () => randomBytes(16).toString("hex");

/** One row in every table that holds an account's data, through the tables' own references. */
async function fill(ctx: Ctx) {
  const accountId = ctx.account.id;
  const now = new Date();
  const [trackable] = await db.insert(schema.trackables).values({ accountId, name: "Van" }).returning();
  const [location] = await db.insert(schema.locations).values({ trackableId: trackable!.id, latitude: 1, longitude: 2, timestamp: now }).returning();
  const [geofence] = await db.insert(schema.geofences).values({ accountId, name: "Depot", latitude: 1, longitude: 2, radius: 100 }).returning();
  await db.insert(schema.geofenceTrackables).values({ geofenceId: geofence!.id, trackableId: trackable!.id });
  await db.insert(schema.trackableStates).values({ trackableId: trackable!.id, accountId });
  await db.insert(schema.geofenceMemberships).values({ trackableId: trackable!.id, geofenceId: geofence!.id, locationId: location!.id, enteredAt: now });
  await db.insert(schema.geofencePendingCrossings).values({
    trackableId: trackable!.id,
    geofenceId: geofence!.id,
    locationId: location!.id,
    timestamp: now,
    latitude: 1,
    longitude: 2,
  });
  const [webhook] = await db.insert(schema.webhooks).values({ accountId, url: "https://example.com/h", events: ["geofence.entry"] }).returning();
  const [event] = await db
    .insert(schema.events)
    .values({ accountId, type: "geofence.entry", trackableId: trackable!.id, geofenceId: geofence!.id, occurredAt: now })
    .returning();
  const [delivery] = await db
    .insert(schema.webhookDeliveries)
    .values({ accountId, event: "geofence.entry", webhookId: webhook!.id, eventId: event!.id, url: "https://example.com/h", payload: {} })
    .returning();
  await db.insert(schema.webhookDeliveryAttempts).values({ deliveryId: delivery!.id, number: 1, attemptedAt: now });
  const [user] = await db.insert(schema.users).values({ accountId, email: `${hex()}@example.com` }).returning();
  await db.insert(schema.passwordResetTokens).values({ userId: user!.id, tokenHash: hex(), expiresAt: now });
  await db.insert(schema.memberships).values({ accountId, userId: user!.id, role: "owner" });
  await db.insert(schema.invitations).values({ accountId, email: `${hex()}@example.com`, role: "viewer", tokenHash: hex(), invitedBy: user!.id, expiresAt: now });
  await db.insert(schema.apiKeys).values({ accountId, name: "key", hash: hex(), start: "fl_" });
  await db.insert(schema.shareLinks).values({ accountId, trackableId: trackable!.id, token: hex(), tokenHash: hex(), expiresAt: now });
  await db.insert(schema.deviceTokens).values({ trackableId: trackable!.id, hash: hex(), prefix: "fldev" });
  const [channel] = await db.insert(schema.notificationChannels).values({ accountId, name: "Phones", type: "ntfy", config: { topic: "t" } }).returning();
  const [rule] = await db
    .insert(schema.notificationRules)
    .values({ accountId, name: "Arrivals", eventTypes: ["geofence.entry"], channelIds: [channel!.id] })
    .returning();
  const [sent] = await db
    .insert(schema.notificationDeliveries)
    .values({
      accountId,
      ruleId: rule!.id,
      channelId: channel!.id,
      eventId: event!.id,
      eventType: "geofence.entry",
      trackableId: trackable!.id,
      eventOccurredAt: now,
      status: "sent",
      message: { title: "t", body: "b", link: null, tags: [] },
    })
    .returning();
  await db.insert(schema.notificationDeliveryAttempts).values({ deliveryId: sent!.id, number: 1, attemptedAt: now });
  await db.insert(schema.privacyZones).values({ accountId, name: "Home", latitude: 1, longitude: 2, radius: 100 });
  await db.insert(schema.imports).values({ accountId, trackableId: trackable!.id, format: "csv" });
  await db.insert(schema.idempotencyKeys).values({ accountId, key: hex(), requestHash: hex() });
  await db.insert(schema.accountExports).values({ accountId });
  await db.insert(schema.trips).values({
    accountId,
    trackableId: trackable!.id,
    status: "ongoing",
    startedAt: now,
    startLatitude: 1,
    startLongitude: 2,
    distance: 0,
    duration: 0,
    maxSpeed: 0,
    pointCount: 1,
    lastFixAt: now,
  });
  await db.insert(schema.stops).values({ accountId, trackableId: trackable!.id, startedAt: now, latitude: 1, longitude: 2, duration: 0, anchorAt: now });
  await db.insert(schema.speedEpisodes).values({ trackableId: trackable!.id, startedAt: now });
  await db.insert(schema.auditLog).values({ accountId, actorType: "apiKey", actorId: trackable!.id, actorName: "Key", action: "trackable.created", objectType: "trackable", objectId: trackable!.id });
}

async function accountName(ctx: Ctx) {
  const [row] = await db.select().from(schema.accounts).where(eq(schema.accounts.id, ctx.account.id));
  return row?.name;
}

describe("deleteWorkspace", () => {
  it("removes every row of the account in every table, and nothing of another account", async () => {
    const kept = await unit.account();
    await fill(kept);
    const before = await rowCounts();

    const gone = await unit.account();
    await fill(gone);
    const filled = await rowCounts();
    // The fill reaches every table that holds account data, so the check below covers each of them.
    for (const [table, n] of Object.entries(filled)) {
      if (!NOT_ACCOUNT_DATA.has(table)) expect(n, table).toBeGreaterThan(before[table]!);
    }

    await deleteWorkspace({ ctx: gone, input: { name: (await accountName(gone))! } });
    expect(await rowCounts()).toEqual(before);
    expect(await accountName(kept)).toBeDefined();
  });

  it("refuses a name that is not the workspace's, deleting nothing", async () => {
    const ctx = await unit.account();
    await fill(ctx);
    const before = await rowCounts();
    const name = (await accountName(ctx))!;
    for (const wrong of [name.toUpperCase() + "x", `${name}-`, "something else"]) {
      await expect(deleteWorkspace({ ctx, input: { name: wrong } })).rejects.toThrow(ApiError);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("keeps a member who belongs to another workspace, now opening that one; deletes one who belongs to no other", async () => {
    const gone = await unit.account();
    const other = await unit.account();
    const [stays, goes] = await db
      .insert(schema.users)
      .values([
        { accountId: gone.account.id, email: `${hex()}@example.com` },
        { accountId: gone.account.id, email: `${hex()}@example.com` },
      ])
      .returning();
    await db.insert(schema.memberships).values([
      { accountId: gone.account.id, userId: stays!.id, role: "owner" },
      { accountId: gone.account.id, userId: goes!.id, role: "admin" },
      { accountId: other.account.id, userId: stays!.id, role: "viewer" },
    ]);
    await deleteWorkspace({ ctx: gone, input: { name: (await accountName(gone))! } });
    const left = await db.select().from(schema.users).where(inArray(schema.users.id, [stays!.id, goes!.id]));
    expect(left.map((u) => [u.id, u.accountId])).toEqual([[stays!.id, other.account.id]]);
    const memberships = await db.select().from(schema.memberships).where(eq(schema.memberships.userId, stays!.id));
    expect(memberships.map((m) => m.accountId)).toEqual([other.account.id]);
  });
});
