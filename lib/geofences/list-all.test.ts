import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { createTrackable } from "@/lib/trackables/trackables";
import { openUnitDb } from "@/tests/support/unit-db";
import { createGeofence, listAllGeofences } from "./geofences";
import { CreateGeofenceInput } from "./schemas";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;
let other: Ctx;

beforeAll(async () => {
  unit = await openUnitDb("list-all-geofences");
  ctx = await unit.account();
  other = await unit.account();
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

const input = (name: string, extra: Record<string, unknown> = {}) =>
  CreateGeofenceInput.parse({ name, latitude: 52.5, longitude: 13.4, radius: 100, ...extra });

describe("listAllGeofences", () => {
  it("returns an empty list for an account without geofences", async () => {
    expect(await listAllGeofences({ ctx: await unit.account() })).toEqual([]);
  });

  it("returns every geofence of the account by name, with assignments, and none of another account", async () => {
    const van = await createTrackable({ ctx, input: { name: "Van", type: "vehicle", metadata: {} } });
    for (let i = 0; i < 25; i++) await createGeofence({ ctx, input: input(`Zone ${String(i).padStart(2, "0")}`) });
    await createGeofence({ ctx, input: input("Airport", { trackableIds: [van.id] }) });
    await createGeofence({ ctx: other, input: input("Elsewhere") });

    const all = await listAllGeofences({ ctx });
    expect(all).toHaveLength(26); // more than one API page (default 20)
    expect(all[0]!.name).toBe("Airport");
    expect(all[0]!.trackableIds).toEqual([van.id]);
    expect(all[1]!.trackableIds).toBeNull();
    expect(all.map((g) => g.name).slice(1)).toEqual([...Array(25)].map((_, i) => `Zone ${String(i).padStart(2, "0")}`));
    expect(all.some((g) => g.name === "Elsewhere")).toBe(false);
  });
});
