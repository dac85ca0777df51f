import { describe, expect, it } from "vitest";
import { concerns } from "./dashboard";

const van = "0193a4b2-0000-7000-8000-00000000000a";
const bike = "0193a4b2-0000-7000-8000-00000000000b";
const location = (trackableId: string) => ({ type: "location.updated", trackableId, eventId: null });
const entry = (trackableId: string) => ({ type: "geofence.entry", trackableId, eventId: "0193a4b2-0000-7000-8000-0000000000e1" });
const notice = (type: string, trackableId = "") => ({ type, trackableId, eventId: null, notice: true as const });

describe("concerns", () => {
  it("sends each page what it shows", () => {
    expect(concerns("trackables", undefined, location(bike))).toBe(true);
    expect(concerns("trackables", undefined, notice("trackable", bike))).toBe(true);
    expect(concerns("trackables", undefined, notice("delivery"))).toBe(false);
    expect(concerns("geofences", undefined, notice("geofence"))).toBe(true);
    expect(concerns("events", undefined, entry(van))).toBe(true);
    expect(concerns("events", undefined, location(van))).toBe(false);
    expect(concerns("deliveries", undefined, entry(van))).toBe(true);
    expect(concerns("deliveries", undefined, notice("delivery"))).toBe(true);
    expect(concerns("deliveries", undefined, location(van))).toBe(false);
    expect(concerns("deliveries", undefined, notice("trackable", van))).toBe(false);
  });

  it("sends one trackable's page what is about that trackable, and the geofences' names", () => {
    expect(concerns("trackable", van, location(van))).toBe(true);
    expect(concerns("trackable", van, entry(van))).toBe(true);
    expect(concerns("trackable", van, notice("trackable", van))).toBe(true);
    expect(concerns("trackable", van, location(bike))).toBe(false);
    expect(concerns("trackable", van, notice("trackable", bike))).toBe(false);
    expect(concerns("trackable", van, notice("geofence"))).toBe(true);
    expect(concerns("trackable", van, notice("delivery"))).toBe(false);
  });
});
