import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { accounts, geofences, geofenceTrackables, trackables } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { findCandidates, loadShapes } from "./candidates";
import { accountFences, bumpGeofencesVersion, candidatesFromCache, shapesFromCache } from "./fence-cache";
import { contains, type LatLon } from "./evaluation";
import { polygonSummary, type PolygonGeometry } from "./shapes";

// The in-memory geofences evaluation uses (fence-cache.ts) against the queries they replace (candidates.ts), on a real
// database: the same fences contain every point, and a version bump is what makes a process see an edit.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
let accountId: string;
let t1: string;
let t2: string;

const version = async (id = accountId) => (await db.select({ v: accounts.geofencesVersion }).from(accounts).where(eq(accounts.id, id)))[0]!.v;

// A seeded generator, so every run has the same geometry.
function rng(seed: number) {
  return () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function star(lat: number, lon: number, r: number, vertices: number): PolygonGeometry {
  const ring: [number, number][] = Array.from({ length: vertices }, (_, k) => {
    const a = (2 * Math.PI * k) / vertices;
    const d = (k % 2 ? r : r / 2) / 111_000;
    return [lon + (Math.sin(a) * d) / Math.cos((lat * Math.PI) / 180), lat + Math.cos(a) * d];
  });
  ring.push(ring[0]!);
  return { type: "Polygon", coordinates: [ring] };
}

beforeAll(async () => {
  unit = await openUnitDb("fence-cache");
  db = unit.db;
  accountId = (await unit.account()).account.id;
  [t1, t2] = (
    await db
      .insert(trackables)
      .values([
        { accountId, name: "t1" },
        { accountId, name: "t2" },
      ])
      .returning({ id: trackables.id })
  ).map((r) => r.id) as [string, string];
  // 300 fences around (48.85, 2.35) — half circles, half 20-vertex stars, some near the antimeridian and a pole —
  // and a third of them assigned to t1 only.
  const next = rng(7);
  const rows = Array.from({ length: 300 }, (_, i) => {
    const far = i % 50 === 0 ? { lat: 89.99, lon: 10 } : i % 50 === 1 ? { lat: 10, lon: 179.999 } : null;
    const lat = far?.lat ?? 48.8 + next() * 0.1;
    const lon = far?.lon ?? 2.3 + next() * 0.1;
    const r = 50 + next() * 1500;
    const base = { accountId, name: `f${i}`, allTrackables: i % 3 !== 0 };
    if (i % 2 === 0) return { ...base, latitude: lat, longitude: lon, radius: r };
    const geometry = star(lat, lon, r, 20);
    return { ...base, shape: "polygon" as const, geometry, ...polygonSummary(geometry) };
  });
  const inserted = await db.insert(geofences).values(rows).returning({ id: geofences.id, allTrackables: geofences.allTrackables });
  const assigned = inserted.filter((f) => !f.allTrackables).map((f) => ({ geofenceId: f.id, trackableId: t1 }));
  await db.insert(geofenceTrackables).values(assigned);
}, 120_000);

afterAll(async () => unit?.close(), 60_000);

describe("fence cache", () => {
  it("finds, for every point, a superset of the fences that contain it, and exactly the same containing fences as findCandidates", async () => {
    const next = rng(11);
    const points: LatLon[] = Array.from({ length: 400 }, () => ({ latitude: 48.78 + next() * 0.14, longitude: 2.28 + next() * 0.14 }));
    points.push({ latitude: 89.995, longitude: -170 }, { latitude: 10, longitude: -179.9995 }, { latitude: 10.001, longitude: 179.9999 });
    const cached = await accountFences(db, accountId, await version());
    let containing = 0;
    for (const trackableId of [t1, t2]) {
      const fromDb = await findCandidates(db, { accountId, trackableId, points });
      const fromCache = candidatesFromCache(cached, trackableId, points);
      const inDb = points.map((p, i) => fromDb[i]!.filter((f) => contains(f, p)).map((f) => f.id));
      const inCache = points.map((p, i) => fromCache[i]!.filter((f) => contains(f, p)).map((f) => f.id));
      expect(inCache).toEqual(inDb);
      containing += inDb.flat().length;
      // In id order, as findCandidates returns them.
      expect(fromCache.map((list) => list.map((f) => f.id))).toEqual(fromCache.map((list) => list.map((f) => f.id).sort()));
    }
    expect(containing).toBeGreaterThan(200); // the data does put points in fences (both shapes)
    const one = (await findCandidates(db, { accountId, trackableId: t1, points: [points[0]!] }))[0]![0];
    if (one) expect(cached.fences.find((f) => f.id === one.id)).toEqual(one);
  }, 120_000);

  it("gives the same candidates for a round's short tracks (one search for their box) as for each point alone", async () => {
    // 60 tracks of 25 points 20 m apart, each checked as one round (the box path: few fences near a short track)
    // against the same points one at a time (a search per point), and their containing fences against findCandidates.
    const next = rng(23);
    const tracks: LatLon[][] = Array.from({ length: 60 }, (_, k) => {
      const start = k === 0 ? { latitude: 10, longitude: 179.9995 } : { latitude: 48.8 + next() * 0.12, longitude: 2.3 + next() * 0.12 };
      const heading = next() * 2 * Math.PI;
      return Array.from({ length: 25 }, (_, i) => ({
        latitude: start.latitude + (Math.cos(heading) * i * 20) / 111_000,
        longitude: ((start.longitude + (Math.sin(heading) * i * 20) / 73_000 + 540) % 360) - 180,
      }));
    });
    const cached = await accountFences(db, accountId, await version());
    const ids = (lists: ReadonlyArray<ReadonlyArray<{ id: string }>>) => lists.map((list) => list.map((f) => f.id));
    let containing = 0;
    for (const trackableId of [t1, t2]) {
      for (const track of tracks) {
        const asTrack = candidatesFromCache(cached, trackableId, track);
        expect(ids(asTrack)).toEqual(ids(track.map((p) => candidatesFromCache(cached, trackableId, [p])[0]!)));
        const fromDb = await findCandidates(db, { accountId, trackableId, points: track });
        const inDb = track.map((p, i) => fromDb[i]!.filter((f) => contains(f, p)).map((f) => f.id));
        expect(track.map((p, i) => asTrack[i]!.filter((f) => contains(f, p)).map((f) => f.id))).toEqual(inDb);
        containing += inDb.flat().length;
      }
    }
    expect(containing).toBeGreaterThan(100);
  }, 120_000);

  it("gives the shapes loadShapes gives: only fences that still apply to the trackable", async () => {
    const cached = await accountFences(db, accountId, await version());
    const ids = cached.fences.map((f) => f.id);
    for (const trackableId of [t1, t2]) {
      const fromDb = await loadShapes(db, { accountId, trackableId, geofenceIds: ids });
      expect(shapesFromCache(cached, trackableId, ids)).toEqual(fromDb);
    }
  });

  it("is reused while the version stands and reloaded after a bump", async () => {
    const v = await version();
    const a = await accountFences(db, accountId, v);
    expect(await accountFences(db, accountId, v)).toBe(a);
    // An edit without a bump is not seen (that is why every edit bumps in its transaction)…
    const [added] = await db
      .insert(geofences)
      .values({ accountId, name: "late", latitude: 0, longitude: 0, radius: 100 })
      .returning({ id: geofences.id });
    expect((await accountFences(db, accountId, v)).fences.some((f) => f.id === added!.id)).toBe(false);
    // …and after the bump it is.
    await bumpGeofencesVersion(db, accountId);
    const v2 = await version();
    expect(v2).toBe(v + 1);
    const b = await accountFences(db, accountId, v2);
    expect(b).not.toBe(a);
    expect(b.fences.some((f) => f.id === added!.id)).toBe(true);
  });

  it("holds nothing for an account without geofences", async () => {
    const empty = (await unit.account()).account.id;
    const cached = await accountFences(db, empty, await version(empty));
    expect(cached.fences).toEqual([]);
    expect(candidatesFromCache(cached, t1, [{ latitude: 48.85, longitude: 2.35 }])).toEqual([[]]);
  });
});
