import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { accounts, events, locations, trackables, webhookDeliveries, webhookDeliveryAttempts } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import { openUnitDb } from "@/tests/support/unit-db";
import { applyRetention, locationExpires, retentionCutoff, uuidV7Floor } from "./retention";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("retention");
  db = unit.db;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

const NOW = new Date("2026-06-15T12:00:00.000Z");
const HOUR = 3_600_000;

describe("locationExpires (the rule)", () => {
  it("deletes exactly what is older than the cutoff, never the newest", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2000, max: 50 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 60 }), (hours, days) => {
        const cutoff = retentionCutoff(NOW, days);
        const locs = hours.map((h, i) => ({ id: `${String(i).padStart(4, "0")}`, timestamp: new Date(NOW.getTime() + h * HOUR) }));
        const newest = [...locs].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || a.id.localeCompare(b.id)).at(-1)!;
        for (const l of locs) {
          expect(locationExpires(l, newest, cutoff)).toBe(l !== newest && l.timestamp.getTime() < NOW.getTime() - days * 24 * HOUR);
        }
        expect(locs.filter((l) => !locationExpires(l, newest, cutoff)).length).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it("uuidV7Floor sorts below every id made before the instant and at or above none made after", () => {
    const before = newId();
    const floor = uuidV7Floor(new Date(Date.now() + 5));
    expect(before < floor).toBe(true);
    expect(uuidV7Floor(new Date(Date.now() - 60_000)) < newId()).toBe(true);
  });
});

describe("applyRetention on the database", () => {
  it("keeps what the rule keeps for generated timestamps, days and batch sizes, and the other account's rows", async () => {
    const other = await unit.account();
    const [otherT] = await db.insert(trackables).values({ accountId: other.account.id, name: "Other" }).returning();
    await db.insert(locations).values({ trackableId: otherT!.id, latitude: 1, longitude: 1, timestamp: new Date(NOW.getTime() - 1000 * 24 * HOUR) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -1500, max: 10 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 7 }),
        async (hours, days, batch) => {
          const ctx = await unit.account();
          await db.update(accounts).set({ locationRetentionDays: days }).where(eq(accounts.id, ctx.account.id));
          const [t] = await db.insert(trackables).values({ accountId: ctx.account.id, name: "Van" }).returning();
          const rows = await db
            .insert(locations)
            .values(hours.map((h) => ({ trackableId: t!.id, latitude: 2, longitude: 2, timestamp: new Date(NOW.getTime() + h * HOUR) })))
            .returning();
          const newest = [...rows].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || (a.id < b.id ? -1 : 1)).at(-1)!;
          // Kept: the newest fix, and every one no older than `days` days (the rule, written out, not called).
          const expected = rows.filter((r) => r === newest || r.timestamp.getTime() >= NOW.getTime() - days * 24 * HOUR).map((r) => r.id).sort();
          await applyRetention({ now: NOW, db, batch });
          const left = await db.select({ id: locations.id }).from(locations).where(eq(locations.trackableId, t!.id));
          expect(left.map((r) => r.id).sort()).toEqual(expected);
          await db.update(accounts).set({ locationRetentionDays: null }).where(eq(accounts.id, ctx.account.id));
        },
      ),
      { numRuns: 25 },
    );
    expect(await db.select().from(locations).where(eq(locations.trackableId, otherT!.id))).toHaveLength(1);
  }, 120_000);

  it("deletes old events, and old finished deliveries with their attempts; keeps recent and pending ones", async () => {
    const ctx = await unit.account();
    await db.update(accounts).set({ eventRetentionDays: 7, deliveryRetentionDays: 3 }).where(eq(accounts.id, ctx.account.id));
    const trackableId = newId();
    const day = 24 * HOUR;
    const [oldEvent, newEvent] = await db
      .insert(events)
      .values([
        { accountId: ctx.account.id, type: "geofence.entry", trackableId, occurredAt: new Date(NOW.getTime() - 8 * day) },
        { accountId: ctx.account.id, type: "geofence.entry", trackableId, occurredAt: new Date(NOW.getTime() - 6 * day) },
      ])
      .returning();
    const delivery = (daysAgo: number, status: "succeeded" | "pending") => {
      const at = new Date(NOW.getTime() - daysAgo * day);
      return { id: uuidV7Floor(at).replace(/0{12}$/, newId().slice(-12)), accountId: ctx.account.id, event: "geofence.entry", status, url: "https://example.com/h", payload: {}, createdAt: at };
    };
    const made = await db.insert(webhookDeliveries).values([delivery(4, "succeeded"), delivery(4, "pending"), delivery(2, "succeeded")]).returning();
    await db.insert(webhookDeliveryAttempts).values(made.map((d) => ({ deliveryId: d.id, number: 1, attemptedAt: d.createdAt })));

    const result = await applyRetention({ now: NOW, db });
    expect(result).toMatchObject({ events: 1, deliveries: 1 });
    expect((await db.select({ id: events.id }).from(events).where(eq(events.accountId, ctx.account.id))).map((e) => e.id)).toEqual([newEvent!.id]);
    expect(oldEvent).toBeDefined();
    const left = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.accountId, ctx.account.id));
    expect(left.map((d) => d.id).sort()).toEqual([made[1]!.id, made[2]!.id].sort());
    const attempts = await db.select().from(webhookDeliveryAttempts).where(inArray(webhookDeliveryAttempts.deliveryId, made.map((d) => d.id)));
    expect(attempts.map((a) => a.deliveryId).sort()).toEqual([made[1]!.id, made[2]!.id].sort());
  });
});
