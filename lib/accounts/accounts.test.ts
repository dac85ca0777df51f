import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { accounts, events, trackables } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { deleteAccounts } from "./accounts";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("accounts");
  db = unit.db;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

/** One trackable with one recorded event (the events log has no foreign key to its account). */
async function withEvent(ctx: Ctx) {
  const [t] = await db.insert(trackables).values({ accountId: ctx.account.id, name: "Van", type: "vehicle" }).returning({ id: trackables.id });
  await db.insert(events).values({ accountId: ctx.account.id, type: "geofence.entry", trackableId: t!.id, occurredAt: new Date() });
}

describe("deleteAccounts", () => {
  it("deletes the accounts with their events and what cascades from them, and nothing of another account", async () => {
    const [gone, kept] = [await unit.account(), await unit.account()];
    await withEvent(gone);
    await withEvent(kept);
    await deleteAccounts(db, [gone.account.id]);
    const ids = [gone.account.id, kept.account.id];
    expect((await db.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, ids))).map((r) => r.id)).toEqual([kept.account.id]);
    expect(await db.select().from(events).where(eq(events.accountId, gone.account.id))).toEqual([]);
    expect(await db.select().from(trackables).where(eq(trackables.accountId, gone.account.id))).toEqual([]);
    expect(await db.select().from(events).where(eq(events.accountId, kept.account.id))).toHaveLength(1);
    expect(await db.select().from(trackables).where(eq(trackables.accountId, kept.account.id))).toHaveLength(1);
  });
});
