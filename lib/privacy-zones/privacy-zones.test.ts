import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackables } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { createPrivacyZone, listMapZones } from "./privacy-zones";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("privacy-zones-map");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

describe("listMapZones", () => {
  it("gives the account's zones, or with a trackable those listed for it or for all; never another account's", async () => {
    const ctx = await unit.account();
    const other = await unit.account();
    const [van, bike] = await unit.db.insert(trackables).values([{ accountId: ctx.account.id, name: "Van" }, { accountId: ctx.account.id, name: "Bike" }]).returning();
    const home = await createPrivacyZone({ ctx, input: { name: "Home", latitude: 52.52, longitude: 13.405, radius: 300, mode: "drop", trackableIds: null } });
    const yard = await createPrivacyZone({ ctx, input: { name: "Yard", latitude: 52.54, longitude: 13.42, radius: 200, mode: "blur", trackableIds: [van!.id] } });
    await createPrivacyZone({ ctx: other, input: { name: "Elsewhere", latitude: 1, longitude: 1, radius: 100, mode: "drop", trackableIds: null } });

    const names = async (trackableId?: string) => (await listMapZones({ ctx, trackableId })).map((z) => z.name).sort();
    expect(await names()).toEqual(["Home", "Yard"]);
    expect(await names(van!.id)).toEqual(["Home", "Yard"]);
    expect(await names(bike!.id)).toEqual(["Home"]);
    expect((await listMapZones({ ctx, trackableId: van!.id })).find((z) => z.id === yard.id)).toEqual({
      id: yard.id,
      name: "Yard",
      latitude: 52.54,
      longitude: 13.42,
      radius: 200,
      mode: "blur",
    });
    expect(home.trackableIds).toBeNull();
  });
});
