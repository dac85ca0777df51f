import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { deviceTokens, locations, trackables } from "@/lib/db/schema";
import { jobsProvider } from "@/lib/jobs/config";
import { createPrivacyZone } from "@/lib/privacy-zones/privacy-zones";
import { openUnitDb } from "@/tests/support/unit-db";
import { ingestLocations } from "./locations";

// With Inngest configured, a post is stored in a transaction of its own (not the embedded runner's one statement):
// paused tracking and drop zones hold there too, for the API and for devices. (Nothing here reaches Inngest: what
// is discarded queues no evaluation.)
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  process.env.INNGEST_EVENT_KEY = "test-key-never-sent";
  unit = await openUnitDb("ingest-privacy");
  db = unit.db;
}, 120_000);
afterAll(async () => {
  await unit?.close();
  delete process.env.INNGEST_EVENT_KEY;
}, 60_000);

async function setup(tracking: "active" | "paused" = "active") {
  const ctx = await unit.account();
  const [t] = await db.insert(trackables).values({ accountId: ctx.account.id, name: "Van", tracking }).returning();
  const [token] = await db.insert(deviceTokens).values({ trackableId: t!.id, name: "phone", hash: `h-${t!.id}`, prefix: "fldev" }).returning();
  return { ctx, trackableId: t!.id, tokenId: token!.id };
}

const stored = async (trackableId: string) => db.select().from(locations).where(eq(locations.trackableId, trackableId));

describe("ingestion in a transaction (Inngest configured)", () => {
  it("runs on the transactional path", () => {
    expect(jobsProvider()).toBe("inngest");
  });

  it("paused: the API and a device get nothing stored and no error", async () => {
    const { ctx, trackableId, tokenId } = await setup("paused");
    expect(await ingestLocations({ ctx, trackableId, inputs: [{ latitude: 1, longitude: 1 }] })).toEqual([]);
    const device = await ingestLocations({ ctx, trackableId, inputs: [{ latitude: 1, longitude: 1, timestamp: new Date() }], source: { kind: "device", app: "owntracks", tokenId } });
    expect(device).toEqual([]);
    expect(await stored(trackableId)).toEqual([]);
  });

  it("drop zone: points inside are not stored; another account's trackable is still 404", async () => {
    const { ctx, trackableId, tokenId } = await setup();
    await createPrivacyZone({ ctx, input: { name: "Home", latitude: 10, longitude: 10, radius: 500, mode: "drop", trackableIds: null } });
    expect(await ingestLocations({ ctx, trackableId, inputs: [{ latitude: 10.001, longitude: 10 }] })).toEqual([]);
    const device = await ingestLocations({ ctx, trackableId, inputs: [{ latitude: 10, longitude: 10.001, timestamp: new Date() }], source: { kind: "device", app: "traccar", tokenId } });
    expect(device).toEqual([]);
    expect(await stored(trackableId)).toEqual([]);
    const other = await unit.account();
    await expect(ingestLocations({ ctx: other, trackableId, inputs: [{ latitude: 10.001, longitude: 10 }] })).rejects.toMatchObject({ status: 404 });
  });
});
