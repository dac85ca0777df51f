import { openUnitDb } from "@/tests/support/unit-db";
import { randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteAccounts } from "@/lib/accounts/accounts";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { accounts, events, locations, trackables, webhookDeliveries } from "@/lib/db/schema";
import { liveFingerprint, type LiveScope } from "./live";

// The live pages' fingerprint against a real database: it moves when what a page shows changes, stays put otherwise,
// and never moves for another account's changes.
let db: Db;
let close: (() => Promise<void>) | undefined;
let mine: Ctx;
let theirs: Ctx;
let van: string;
let other: string;

async function account(db: Db, name: string): Promise<Ctx> {
  const [a] = await db
    .insert(accounts)
    .values({ slug: `${name}-${randomBytes(6).toString("hex")}`, name, plan: "enterprise" })
    .returning({ id: accounts.id });
  return { account: { id: a!.id, plan: "enterprise" }, db };
}
const newTrackable = async (ctx: Ctx, name: string) =>
  (await db.insert(trackables).values({ accountId: ctx.account.id, name, type: "vehicle" }).returning({ id: trackables.id }))[0]!.id;

beforeAll(async () => {
  ({ db, close } = await openUnitDb("live"));
  mine = await account(db, "live-mine");
  theirs = await account(db, "live-theirs");
  van = await newTrackable(mine, "Van");
  other = await newTrackable(theirs, "Other van");
}, 120_000);

afterAll(async () => {
  if (db && mine && theirs) await deleteAccounts(db, [mine.account.id, theirs.account.id]);
  await close?.();
}, 60_000);

const all = async (ctx: Ctx) => {
  const out: Record<string, string> = {};
  for (const scope of ["trackables", "geofences", "deliveries", "events"] as LiveScope[]) out[scope] = await liveFingerprint({ ctx, scope });
  out.trackable = await liveFingerprint({ ctx, scope: "trackable", trackableId: van });
  return out;
};

describe("liveFingerprint", () => {
  it("is stable while nothing changes", async () => {
    expect(await all(mine)).toEqual(await all(mine));
  });

  it("moves on a new location for the pages that show positions, and not for another account's", async () => {
    const before = await all(mine);
    await db.insert(locations).values({ trackableId: other, latitude: 1, longitude: 1, timestamp: new Date() });
    expect(await all(mine)).toEqual(before);
    await db.insert(locations).values({ trackableId: van, latitude: 1, longitude: 1, timestamp: new Date() });
    const after = await all(mine);
    expect(after.trackables).not.toBe(before.trackables);
    expect(after.trackable).not.toBe(before.trackable);
    expect(after.geofences).not.toBe(before.geofences);
    expect(after.deliveries).toBe(before.deliveries);
  });

  it("moves on a new event and a new delivery", async () => {
    const before = await all(mine);
    await db.insert(events).values({ accountId: mine.account.id, type: "battery.low", trackableId: van, occurredAt: new Date() });
    const withEvent = await all(mine);
    expect(withEvent.events).not.toBe(before.events);
    expect(withEvent.trackable).not.toBe(before.trackable);
    await db.insert(webhookDeliveries).values({ accountId: mine.account.id, event: "battery.low", url: "https://example.com/h", payload: {} });
    expect((await all(mine)).deliveries).not.toBe(withEvent.deliveries);
  });

  it("a trackable of another account answers exactly as an unknown one; deleting a trackable moves its fingerprint", async () => {
    const fingerprint = (trackableId: string) => liveFingerprint({ ctx: mine, scope: "trackable", trackableId });
    const unknown = await fingerprint("0193a4b2-0000-7000-8000-000000000000");
    expect(await fingerprint(other)).toBe(unknown);
    const doomed = await newTrackable(mine, "Doomed");
    const alive = await fingerprint(doomed);
    expect(alive).not.toBe(unknown);
    await db.delete(trackables).where(inArray(trackables.id, [doomed]));
    // The open page sees a change (and re-renders into its not-found state) rather than an error.
    expect(await fingerprint(doomed)).toBe(unknown);
  });
});
