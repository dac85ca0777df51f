import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EARTH_RADIUS_M, haversineMeters } from "@/lib/geofences/haversine";
import { applyPrivacyZones, inZone, zoneFor, type PrivacyZone } from "./zone-cache";

const RAD = Math.PI / 180;

/** The point `distance` metres from `from` along `bearing` degrees, on the sphere haversineMeters measures on. */
function destination(from: { latitude: number; longitude: number }, bearing: number, distance: number) {
  const d = distance / EARTH_RADIUS_M;
  const phi1 = from.latitude * RAD;
  const theta = bearing * RAD;
  const phi2 = Math.asin(Math.sin(phi1) * Math.cos(d) + Math.cos(phi1) * Math.sin(d) * Math.cos(theta));
  const lambda2 = from.longitude * RAD + Math.atan2(Math.sin(theta) * Math.sin(d) * Math.cos(phi1), Math.cos(d) - Math.sin(phi1) * Math.sin(phi2));
  return { latitude: phi2 / RAD, longitude: ((((lambda2 / RAD) + 540) % 360) - 180) };
}

const centre = fc.record({ latitude: fc.double({ min: -85, max: 85, noNaN: true }), longitude: fc.double({ min: -180, max: 180, noNaN: true }) });
const radius = fc.double({ min: 50, max: 100_000, noNaN: true });

describe("inZone", () => {
  it("holds every point closer than the radius and none farther, whatever the place and bearing (antimeridian included)", () => {
    fc.assert(
      fc.property(centre, radius, fc.double({ min: 0, max: 360, noNaN: true }), fc.double({ min: 0, max: 0.999, noNaN: true }), (c, r, bearing, f) => {
        const zone = { ...c, radius: r };
        expect(inZone(zone, c)).toBe(true);
        expect(inZone(zone, destination(c, bearing, r * f))).toBe(true);
        expect(inZone(zone, destination(c, bearing, r * (1.001 + f)))).toBe(false);
      }),
    );
  });
});

describe("zoneFor", () => {
  it("decides exactly as the distance does (its box only skips points certainly outside)", () => {
    fc.assert(
      fc.property(centre, radius, fc.double({ min: 0, max: 360, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), (c, r, bearing, f) => {
        const p = destination(c, bearing, r * f);
        const z: PrivacyZone = { id: "z", ...c, radius: r, mode: "drop", trackableIds: null };
        expect(zoneFor([z], "t", p) !== null).toBe(haversineMeters(c, p) <= r);
      }),
      { numRuns: 2000 },
    );
  });
});

const zone = (over: Partial<PrivacyZone>): PrivacyZone => ({ id: "z", latitude: 52.52, longitude: 13.405, radius: 100, mode: "drop", trackableIds: null, ...over });
const point = (latitude: number, longitude: number) => ({ latitude, longitude, accuracy: 5 as number | null, id: `${latitude}` });

describe("applyPrivacyZones", () => {
  it("drops inside a drop zone, moves to the centre with accuracy = radius inside a blur zone, keeps the rest in order", () => {
    const zones = [zone({ id: "home" }), zone({ id: "office", latitude: 52.6, longitude: 13.5, radius: 200, mode: "blur" })];
    const out = applyPrivacyZones(zones, "t1", [point(52.5201, 13.4051), point(52.7, 13.7), point(52.6005, 13.5)]);
    expect(out).toEqual([point(52.7, 13.7), { ...point(52.6005, 13.5), latitude: 52.6, longitude: 13.5, accuracy: 200 }]);
  });

  it("a drop zone wins over a blur zone holding the same point; a zone for other trackables does nothing", () => {
    const p = point(52.52, 13.405);
    expect(zoneFor([zone({ id: "b", mode: "blur" }), zone({ id: "d" })], "t1", p)?.id).toBe("d");
    expect(applyPrivacyZones([zone({ trackableIds: new Set(["t2"]) })], "t1", [p])).toEqual([p]);
  });

  it("returns the very same array when nothing applies (no copy on the hot path)", () => {
    const values = [point(10, 10)];
    expect(applyPrivacyZones([], "t1", values)).toBe(values);
    expect(applyPrivacyZones([zone({})], "t1", values)).toBe(values);
  });
});
