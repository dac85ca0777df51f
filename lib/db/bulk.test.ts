import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { openUnitDb } from "@/tests/support/unit-db";
import { insertUnnested } from "./bulk";
import { queryRows } from "./rows";
import { events, geofenceMemberships, geofences, trackables, type NewEventRow } from "./schema";

// insertUnnested writes what a drizzle insert of the same rows writes (ids from $defaultFn, NULL for unset nullable
// columns, database defaults for columns no row sets, JSON and millisecond timestamps intact), for 1 row or many.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;

beforeAll(async () => {
  unit = await openUnitDb("bulk");
  ctx = await unit.account();
}, 120_000);
afterAll(async () => unit?.close());

describe("insertUnnested", () => {
  it("stores the same rows as a drizzle insert, with the special characters, nulls and JSON intact", async () => {
    const trackableId = "0193a3c0-0000-7000-8000-000000000001";
    const at = new Date("2026-11-23T08:00:00.123Z");
    const row = (i: number, viaDrizzle: boolean): NewEventRow => ({
      accountId: ctx.account.id,
      type: i % 2 ? "geofence.exit" : "geofence.entry",
      trackableId,
      geofenceId: i % 3 ? null : trackableId,
      occurredAt: new Date(at.getTime() + i),
      location: { latitude: 52.5 + i / 1e6, longitude: -13.4, accuracy: i % 2 ? null : 4.5, timestamp: `"quoted", {braces} \\ ${viaDrizzle}` },
      reason: "crossing",
      ...(i % 2 ? { durationSeconds: i * 7 } : {}),
      confidence: null,
      // json keeps its text: key order (z before a), escapes (a NUL too) and unicode come back as written; some rows have none.
      payload: i % 4 === 3 ? null : { z: i, a: `"\\ \u0000 ünïcode {x,y} '`, nested: [1, null, { b: [] }] },
    });
    await insertUnnested(unit.db, events, Array.from({ length: 25 }, (_, i) => row(i, false)));
    await unit.db.insert(events).values(Array.from({ length: 25 }, (_, i) => row(i, true)));
    const stored = await unit.db.select().from(events).where(eq(events.trackableId, trackableId));
    expect(stored).toHaveLength(50);
    const strip = ({ id, createdAt, ...rest }: typeof events.$inferSelect) => {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(createdAt).toBeInstanceOf(Date);
      return { ...rest, location: { ...rest.location!, timestamp: rest.location!.timestamp.replace(/(true|false)$/, "") } };
    };
    const byTime = (a: { occurredAt: Date }, b: { occurredAt: Date }) => a.occurredAt.getTime() - b.occurredAt.getTime();
    const unnested = stored.filter((r) => r.location!.timestamp.endsWith("false")).map(strip).sort(byTime);
    const drizzled = stored.filter((r) => r.location!.timestamp.endsWith("true")).map(strip).sort(byTime);
    expect(unnested).toEqual(drizzled);
    expect(unnested[1]!.occurredAt.toISOString()).toBe("2026-11-23T08:00:00.124Z");
    expect(unnested[0]!.durationSeconds).toBeNull();
    expect(new Set(stored.map((r) => r.id)).size).toBe(50);
    // NULL stays SQL NULL, not a JSON null (both read back as null in JS): counted in SQL.
    const [nulls] = await queryRows<{ n: number }>(unit.db, `select count(*)::int as n from events where trackable_id = $1 and payload is null`, [trackableId]);
    expect(nulls!.n).toBe(12);
    const [first] = await queryRows<{ payload: string }>(
      unit.db,
      `select payload::text as payload from events where trackable_id = $1 and location->>'timestamp' like '%false' order by occurred_at limit 1`,
      [trackableId],
    );
    expect(first!.payload).toBe(JSON.stringify(row(0, false).payload));
  });

  it("upserts with an ON CONFLICT clause", async () => {
    const [t] = await unit.db.insert(trackables).values({ accountId: ctx.account.id, name: "bulk" }).returning({ id: trackables.id });
    const fenceIds = (
      await unit.db
        .insert(geofences)
        .values([1, 2, 3].map((i) => ({ accountId: ctx.account.id, name: `f${i}`, latitude: 52, longitude: 13, radius: 100 })))
        .returning({ id: geofences.id })
    ).map((f) => f.id);
    const member = (geofenceId: string, dwelt: boolean) => ({
      trackableId: t!.id,
      geofenceId,
      locationId: geofenceId,
      enteredAt: new Date("2026-11-23T08:00:00.000Z"),
      dwelt,
    });
    const onConflict = "on conflict (trackable_id, geofence_id) do update set dwelt = excluded.dwelt";
    await insertUnnested(unit.db, geofenceMemberships, fenceIds.map((g) => member(g, false)), { onConflict });
    await insertUnnested(unit.db, geofenceMemberships, [member(fenceIds[0]!, true)], { onConflict });
    const rows = await unit.db.select().from(geofenceMemberships).where(eq(geofenceMemberships.trackableId, t!.id));
    expect(rows.map((r) => [r.geofenceId, r.dwelt]).sort()).toEqual(fenceIds.map((g, i) => [g, i === 0]).sort());
  });

  it("refuses rows that set a column with a database default only in part", async () => {
    const base = { accountId: ctx.account.id, type: "battery.low" as const, trackableId: ctx.account.id, occurredAt: new Date() };
    await expect(insertUnnested(unit.db, events, [base, { ...base, createdAt: new Date() }])).rejects.toThrow(/created_at is set in some rows only/);
  });
});
