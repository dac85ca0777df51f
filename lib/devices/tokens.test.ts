import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyApiKey } from "@/lib/api-keys/keys";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { deviceTokens, locations, trackables } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { ingestLocations } from "@/lib/locations/locations";
import { openUnitDb } from "@/tests/support/unit-db";
import { createDeviceToken, generateDeviceToken, hashDeviceToken, verifyDeviceToken } from "./tokens";

// Device tokens and the device store path on a real database (PGlite, or a scratch Postgres with DATABASE_URL, where
// the concurrent posts below really run on separate connections at once).
let db: Db;
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;

beforeAll(async () => {
  unit = await openUnitDb("device_tokens");
  db = unit.db;
  ctx = await unit.account();
}, 120_000);
afterAll(async () => unit?.close());

async function newTrackable() {
  const [t] = await db.insert(trackables).values({ accountId: ctx.account.id, name: "Phone" }).returning({ id: trackables.id });
  return t!.id;
}

const point = { latitude: 52.52, longitude: 13.405, timestamp: new Date("2026-03-01T10:00:00.000Z") };

describe("device tokens at rest", () => {
  it("stores only the SHA-256 of the token and a short prefix; tokens are letters and digits with ≥ 128 random bits", async () => {
    const trackableId = await newTrackable();
    const created = await createDeviceToken({ ctx, trackableId, input: { name: "phone" } });
    const [row] = await db.select().from(deviceTokens).where(eq(deviceTokens.id, created.id));
    expect(row!.hash).toBe(hashDeviceToken(created.token));
    expect(row!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.token.slice(11));
    expect(row!.prefix).toBe(created.token.slice(0, 11));

    const many = Array.from({ length: 2000 }, generateDeviceToken);
    expect(new Set(many).size).toBe(many.length);
    for (const t of many) expect(t).toMatch(/^fldev[A-Za-z0-9]{32}$/);
    // Every one of the 62 characters shows up at every position over 2000 draws (32 × log2 62 ≈ 190 bits).
    const chars = new Set(many.flatMap((t) => [...t.slice(5)]));
    expect(chars.size).toBe(62);
  });

  it("verifies to its trackable and account; API keys and device tokens never verify as each other", async () => {
    const trackableId = await newTrackable();
    const { token, id } = await createDeviceToken({ ctx, trackableId, input: {} });
    expect(await verifyDeviceToken(db, token)).toEqual({ tokenId: id, trackableId, account: ctx.account });
    expect(await verifyApiKey(db, token)).toBeNull();
    expect(await verifyDeviceToken(db, "fl_" + token)).toBeNull();
    expect(await verifyDeviceToken(db, generateDeviceToken())).toBeNull();
  });

  it("a token deleted by another process is refused by the store path at once, even while this process still remembers it", async () => {
    const trackableId = await newTrackable();
    const { token, id } = await createDeviceToken({ ctx, trackableId, input: {} });
    const verified = (await verifyDeviceToken(db, token))!;
    await db.delete(deviceTokens).where(eq(deviceTokens.id, id)); // behind this process's back
    expect(await verifyDeviceToken(db, token)).not.toBeNull(); // still cached…
    const stored = ingestLocations({ ctx, trackableId, inputs: [point], source: { kind: "device", app: "traccar", tokenId: verified.tokenId } });
    await expect(stored).rejects.toMatchObject({ code: "unauthorized" }); // …but the insert is refused
    await expect(stored).rejects.toBeInstanceOf(ApiError);
    expect(await db.select().from(locations).where(eq(locations.trackableId, trackableId))).toEqual([]);
  });
});

describe("the device store path", () => {
  it("drops exact resends: against stored points, within one request, and across 12 concurrent requests", async () => {
    const trackableId = await newTrackable();
    const { id: tokenId } = await createDeviceToken({ ctx, trackableId, input: {} });
    const source = { kind: "device", app: "overland", tokenId } as const;
    const first = await ingestLocations({ ctx, trackableId, inputs: [point, point], source });
    expect(first).toHaveLength(1);
    expect(await ingestLocations({ ctx, trackableId, inputs: [point], source })).toEqual([]);
    // Same time and place but moved: not a resend.
    const moved = { ...point, longitude: 13.406 };
    const second = { ...point, timestamp: new Date("2026-03-01T10:00:01.000Z") };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => ingestLocations({ ctx: { ...ctx }, trackableId, inputs: [point, moved, second], source })),
    );
    expect(results.flat()).toHaveLength(2);
    const rows = await db.select().from(locations).where(eq(locations.trackableId, trackableId));
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(["overland"]));
  });

  it("a device resend of a point the API stored is dropped too; the device's new point is stored", async () => {
    const trackableId = await newTrackable();
    const { id: tokenId } = await createDeviceToken({ ctx, trackableId, input: {} });
    await ingestLocations({ ctx, trackableId, inputs: [point] });
    const later = { ...point, timestamp: new Date("2026-03-01T10:05:00.000Z") };
    const stored = await ingestLocations({ ctx, trackableId, inputs: [point, later], source: { kind: "device", app: "traccar", tokenId } });
    expect(stored.map((l) => l.timestamp)).toEqual([later.timestamp.toISOString()]);
    const rows = await db.select().from(locations).where(eq(locations.trackableId, trackableId));
    expect(rows.map((r) => r.source).sort()).toEqual(["api", "traccar"]);
  });

  it("the API path keeps every point it is sent, duplicates included (its contract returns each one)", async () => {
    const trackableId = await newTrackable();
    expect(await ingestLocations({ ctx, trackableId, inputs: [point, point] })).toHaveLength(2);
    expect((await ingestLocations({ ctx, trackableId, inputs: [point] }))[0]!.source).toBe("api");
  });
});
