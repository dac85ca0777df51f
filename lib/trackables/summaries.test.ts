import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locations } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { listTrackableSummaries } from "./summaries";
import { createTrackable } from "./trackables";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("trackable-summaries");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

describe("listTrackableSummaries", () => {
  it("lists the account's trackables by name with their newest position, or null before any", async () => {
    const ctx = await unit.account();
    const other = await unit.account();
    const bike = await createTrackable({ ctx, input: { name: "Bike", type: "device", metadata: {} } });
    await createTrackable({ ctx, input: { name: "Anchor", type: "device", metadata: {} } });
    const mine = await createTrackable({ ctx: other, input: { name: "Not mine", type: "device", metadata: {} } });
    // Stored directly (not through ingest, which would schedule geofence evaluation): newest by timestamp, not by insert.
    await unit.db.insert(locations).values([
      { trackableId: bike.id, latitude: 1, longitude: 1, timestamp: new Date("2026-01-01T10:00:00Z") },
      { trackableId: bike.id, latitude: 3, longitude: 3, timestamp: new Date("2026-01-01T12:00:00Z") },
      { trackableId: bike.id, latitude: 2, longitude: 2, timestamp: new Date("2026-01-01T11:00:00Z") },
      { trackableId: mine.id, latitude: 9, longitude: 9, timestamp: new Date("2026-01-01T13:00:00Z") },
    ]);
    expect(await listTrackableSummaries({ ctx })).toEqual([
      { id: expect.any(String), name: "Anchor", type: "device", lastPosition: null },
      { id: bike.id, name: "Bike", type: "device", lastPosition: { latitude: 3, longitude: 3, timestamp: "2026-01-01T12:00:00.000Z" } },
    ]);
    expect(await listTrackableSummaries({ ctx: await unit.account() })).toEqual([]);
  });
});
