import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { stopStreamBus, subscribe } from "./bus";
import { filterOf, wantsLocations } from "./stream";
import { isWatched } from "./watch";

afterAll(() => stopStreamBus());

describe("which accounts have location.updated built for them", () => {
  it("a stream that wants location.updated makes its account watched; one whose filter leaves them out does not", async () => {
    const account = randomUUID();
    const onlyGeofences = await subscribe(account, () => {}, { locations: false });
    expect(isWatched(account)).toBe(false);
    const all = await subscribe(account, () => {});
    expect(isWatched(account)).toBe(true);
    all();
    expect(isWatched(account)).toBe(false);
    onlyGeofences();
    expect(isWatched(account)).toBe(false);
  });

  it("the account stays watched while any stream that wants them is open", async () => {
    const account = randomUUID();
    const a = await subscribe(account, () => {});
    const b = await subscribe(account, () => {}, { locations: true });
    a();
    expect(isWatched(account)).toBe(true);
    b();
    expect(isWatched(account)).toBe(false);
  });

  it("a public stream wants them unless its filter can never match one: other types only, or geofences named", () => {
    expect(wantsLocations(filterOf({}))).toBe(true);
    expect(wantsLocations(filterOf({ types: ["location.updated", "geofence.entry"] }))).toBe(true);
    expect(wantsLocations(filterOf({ trackableIds: ["0190f0c2-8a6b-7000-8000-000000000001"] }))).toBe(true);
    expect(wantsLocations(filterOf({ types: ["geofence.entry", "geofence.exit"] }))).toBe(false);
    expect(wantsLocations(filterOf({ geofenceIds: ["0190f0c2-8a6b-7000-8000-000000000002"] }))).toBe(false);
  });
});
