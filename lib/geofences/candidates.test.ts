import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { executeRows } from "@/lib/db/rows";
import { geofences, geofenceTrackables, trackables } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { candidatesQuery, findCandidates, loadShapes } from "./candidates";
import { contains, EARTH_RADIUS_M, haversineMeters, type LatLon } from "./evaluation";
import { polygonSummary } from "./shapes";

// A real database opened the way the app opens it: embedded PGlite in a temp DATA_DIR, or, with DATABASE_URL, a
// scratch database of its own on that Postgres (so an older schema left in the shared one cannot get in the way).
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;

let accountId: string;
let otherAccountId: string;
let t1: string;
let t2: string;

const newAccount = async (): Promise<string> => (await unit.account()).account.id;

async function fence(
  values: { name: string; latitude: number; longitude: number; radius: number; allTrackables?: boolean; account?: string },
  assigned: string[] = [],
): Promise<string> {
  const [row] = await db
    .insert(geofences)
    .values({ ...values, accountId: values.account ?? accountId, allTrackables: values.allTrackables ?? true })
    .returning({ id: geofences.id });
  if (assigned.length > 0) await db.insert(geofenceTrackables).values(assigned.map((trackableId) => ({ geofenceId: row!.id, trackableId })));
  return row!.id;
}

const DEG = 180 / Math.PI;
const north = (from: LatLon, meters: number): LatLon => ({ latitude: from.latitude + (meters / EARTH_RADIUS_M) * DEG, longitude: from.longitude });
const names = async (trackableId: string, points: LatLon[]) =>
  (await findCandidates(db, { accountId, trackableId, points })).map((list) => list.map((c) => c.name).sort());

beforeAll(async () => {
  unit = await openUnitDb("candidates");
  db = unit.db;
  accountId = await newAccount();
  otherAccountId = await newAccount();
  [t1, t2] = (
    await db
      .insert(trackables)
      .values([
        { accountId, name: "t1" },
        { accountId, name: "t2" },
      ])
      .returning({ id: trackables.id })
  ).map((r) => r.id) as [string, string];
}, 120_000);

afterAll(async () => unit?.close(), 60_000);

describe("findCandidates", () => {
  it("returns nothing for no points, without failing", async () => {
    expect(await findCandidates(db, { accountId, trackableId: t1, points: [] })).toEqual([]);
  });

  it("returns, per point, the geofences that apply to the trackable: all trackables, or assigned to it", async () => {
    const centre = { latitude: 46.2, longitude: 6.15 };
    await fence({ name: "assign-all", ...centre, radius: 300 });
    await fence({ name: "assign-t1", ...centre, radius: 300, allTrackables: false }, [t1]);
    await fence({ name: "assign-t2", ...centre, radius: 300, allTrackables: false }, [t2]);
    await fence({ name: "assign-both", ...centre, radius: 300, allTrackables: false }, [t1, t2]);
    await fence({ name: "assign-none", ...centre, radius: 300, allTrackables: false });
    const away = north(centre, 2_000);

    expect(await names(t1, [centre, away])).toEqual([["assign-all", "assign-both", "assign-t1"], []]);
    expect(await names(t2, [away, centre])).toEqual([[], ["assign-all", "assign-both", "assign-t2"]]);
  });

  it("never returns another account's geofences", async () => {
    const centre = { latitude: -33.86, longitude: 151.21 };
    await fence({ name: "mine", ...centre, radius: 500 });
    await fence({ name: "theirs", ...centre, radius: 500, account: otherAccountId });
    expect(await names(t1, [centre])).toEqual([["mine"]]);
    const [theirs] = await findCandidates(db, { accountId: otherAccountId, trackableId: t1, points: [centre] });
    expect(theirs?.map((c) => c.name)).toEqual(["theirs"]);
  });

  it("returns the row's fields with honest types", async () => {
    const centre = { latitude: 35.68, longitude: 139.76 };
    const id = await fence({ name: "typed", ...centre, radius: 123.25 });
    await db.update(geofences).set({ notificationType: "webhook", webhookUrl: "https://example.com/h", webhookSecret: "s3cret", exitBuffer: 12.5, maxAccuracy: 40 }).where(eq(geofences.id, id));
    const [list] = await findCandidates(db, { accountId, trackableId: t1, points: [centre] });
    expect(list).toHaveLength(1);
    const c = list![0];
    expect(c).toEqual({
      id,
      name: "typed",
      latitude: 35.68,
      longitude: 139.76,
      radius: 123.25,
      geometry: null,
      exitBuffer: 12.5,
      debounceSeconds: 0,
      dwellSeconds: 0,
      maxAccuracy: 40,
      notificationType: "webhook",
      webhookUrl: "https://example.com/h",
      webhookSecret: "s3cret",
    });
    expect(typeof c!.latitude).toBe("number");
    expect(typeof c!.debounceSeconds).toBe("number");
    expect(typeof c!.radius).toBe("number");
  });

  it("finds a polygon by its bounding circle, with its rings as an object; the exact test decides", async () => {
    // A "U" opening north; its notch lies inside the bounding circle but outside the polygon.
    const geometry = {
      type: "Polygon" as const,
      coordinates: [[[10, 50], [10.03, 50], [10.03, 50.03], [10.02, 50.03], [10.02, 50.01], [10.01, 50.01], [10.01, 50.03], [10, 50.03], [10, 50]]] as [number, number][][],
    };
    const summary = polygonSummary(geometry);
    const [row] = await db.insert(geofences).values({ accountId, name: "U", shape: "polygon", geometry, ...summary }).returning({ id: geofences.id });
    const notch = { latitude: 50.02, longitude: 10.015 };
    const arm = { latitude: 50.02, longitude: 10.005 };
    const [inNotch, inArm] = await findCandidates(db, { accountId, trackableId: t1, points: [notch, arm] });
    const u = inNotch!.find((c) => c.id === row!.id)!;
    expect(u.geometry).toEqual(geometry);
    expect(contains(u, notch)).toBe(false);
    expect(contains(inArm!.find((c) => c.id === row!.id)!, arm)).toBe(true);
    await db.delete(geofences).where(eq(geofences.id, row!.id));
  });

  it("a point at exactly the radius is a candidate (and contained); well beyond it is not a candidate", async () => {
    // The cube is axis-aligned in 3-D, so along a diagonal it reaches up to √3 × its half-side: "well beyond" is 2×.
    for (const [i, centre] of [
      { latitude: 0, longitude: 10 },
      { latitude: 60, longitude: 10 },
      { latitude: -80, longitude: 10 },
    ].entries()) {
      for (const r of [50, 2_000, 50_000]) {
        const edge = north(centre, r);
        const radius = haversineMeters(centre, edge);
        const name = `edge-${i}-${r}`;
        await fence({ name, ...centre, radius });
        const [atEdge, beyond] = await findCandidates(db, { accountId, trackableId: t1, points: [edge, north(centre, r * 2)] });
        const hit = atEdge!.find((c) => c.name === name);
        expect(hit, name).toBeDefined();
        expect(contains(hit!, edge)).toBe(true);
        expect(beyond!.some((c) => c.name === name)).toBe(false);
      }
    }
  });

  it("finds geofences across the antimeridian", async () => {
    await fence({ name: "date-line-east", latitude: 0, longitude: 179.9995, radius: 200 });
    await fence({ name: "date-line-west", latitude: -16.5, longitude: -179.9999, radius: 100 });
    const [a, b] = await names(t1, [
      { latitude: 0, longitude: -179.9995 },
      { latitude: -16.5, longitude: 179.9999 },
    ]);
    expect(a).toEqual(["date-line-east"]);
    expect(b).toEqual(["date-line-west"]);
  });

  it("finds geofences at the poles, whatever the point's longitude", async () => {
    await fence({ name: "north-pole", latitude: 90, longitude: 0, radius: 50 });
    await fence({ name: "south-pole", latitude: -90, longitude: 77, radius: 50 });
    const lons = [-180, -120, -45.5, 0, 33, 90, 179.99, 180];
    const north = await names(t1, lons.map((longitude) => ({ latitude: 89.9999, longitude })));
    const south = await names(t1, lons.map((longitude) => ({ latitude: -89.9999, longitude })));
    expect(north).toEqual(lons.map(() => ["north-pole"]));
    expect(south).toEqual(lons.map(() => ["south-pole"]));
  });

  it("keeps the input order, for repeated points too", async () => {
    const centre = { latitude: 40.4, longitude: -3.7 };
    await fence({ name: "order-a", ...centre, radius: 100 });
    await fence({ name: "order-b", ...north(centre, 150), radius: 100 });
    const nowhere = { latitude: 10, longitude: -30 };
    expect(await names(t1, [north(centre, 150), nowhere, centre, centre, north(centre, 75)])).toEqual([
      ["order-b"],
      [],
      ["order-a"],
      ["order-a"],
      ["order-a", "order-b"],
    ]);
  });

  it("works inside a transaction (the orchestrator's executor)", async () => {
    const centre = { latitude: 64.15, longitude: -21.94 };
    const id = await fence({ name: "in-tx", ...centre, radius: 100 });
    const [found, shapes] = await db.transaction(async (tx) => [
      await findCandidates(tx, { accountId, trackableId: t1, points: [centre] }),
      await loadShapes(tx, { accountId, trackableId: t1, geofenceIds: [id] }),
    ]);
    expect(found.map((l) => l.map((c) => c.id))).toEqual([[id]]);
    expect([...shapes.keys()]).toEqual([id]);
  });

  it("refuses coordinates that are not finite numbers", async () => {
    await expect(findCandidates(db, { accountId, trackableId: t1, points: [{ latitude: Number.NaN, longitude: 0 }] })).rejects.toThrow(/finite/);
  });

  it("uses the GiST index (the join repeats its expression exactly)", async () => {
    // Enough decoys elsewhere for the index to be worth it on any planner, then the plan of a batch.
    const decoys = Array.from({ length: 3_000 }, (_, i) => ({
      accountId,
      name: `decoy-${i}`,
      latitude: -60 + (i % 100),
      longitude: -170 + Math.floor(i / 100) * 10,
      radius: 100,
    }));
    await db.insert(geofences).values(decoys);
    await db.execute(sql`analyze geofences`);
    const points = Array.from({ length: 200 }, (_, i) => ({ latitude: 48 + i / 1000, longitude: 2 }));
    const plan = (await executeRows<Record<string, string>>(db, sql`explain ${candidatesQuery({ accountId, trackableId: t1, points })}`))
      .map((r) => Object.values(r)[0])
      .join("\n");
    expect(plan).toMatch(/Index Scan using geofences_earth_box_idx on geofences/);
  });
});

describe("loadShapes", () => {
  it("returns the still-applying geofences among the ids, keyed by id", async () => {
    const centre = { latitude: 59.33, longitude: 18.07 };
    const all = await fence({ name: "shape-all", ...centre, radius: 100 });
    const mine = await fence({ name: "shape-t1", ...centre, radius: 100, allTrackables: false }, [t1]);
    const unassigned = await fence({ name: "shape-t2", ...centre, radius: 100, allTrackables: false }, [t2]);
    const theirs = await fence({ name: "shape-theirs", ...centre, radius: 100, account: otherAccountId });
    const deleted = await fence({ name: "shape-deleted", ...centre, radius: 100 });
    await db.delete(geofences).where(eq(geofences.id, deleted));

    const shapes = await loadShapes(db, { accountId, trackableId: t1, geofenceIds: [all, mine, unassigned, theirs, deleted] });
    expect([...shapes.keys()].sort()).toEqual([all, mine].sort());
    expect(shapes.get(mine)).toEqual({
      id: mine,
      name: "shape-t1",
      ...centre,
      radius: 100,
      geometry: null,
      exitBuffer: 0,
      debounceSeconds: 0,
      dwellSeconds: 0,
      maxAccuracy: null,
      notificationType: "none",
      webhookUrl: null,
      webhookSecret: null,
    });
    const forT2 = await loadShapes(db, { accountId, trackableId: t2, geofenceIds: [all, mine, unassigned] });
    expect([...forT2.keys()].sort()).toEqual([all, unassigned].sort());
  });

  it("returns an empty map for no ids", async () => {
    expect((await loadShapes(db, { accountId, trackableId: t1, geofenceIds: [] })).size).toBe(0);
  });
});
