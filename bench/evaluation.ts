import { scratchPostgres } from "@/tests/support/scratch-db";
// Geofence evaluation: the indexed paths against a naive loop over every geofence of the account (the exact per-shape
// test on each), on 10,000 geofences in a ~50 km region, half of them circles and half 20-vertex (concave,
// star-shaped) polygons. The indexed paths: the account's fences in memory (accountFences' packed R-tree,
// candidatesFromCache: what evaluation uses), and findCandidates through the GiST index (the SQL form, which the
// cache replaced in evaluation), each followed by the exact test on the candidates. Checks that every path agrees
// with the naive loop on every point (exit 1 if not); prints throughput, never asserts it.
// Usage: npx tsx bench/evaluation.ts [points=20000] [single=2000]
//   PGlite in a temp directory by default; with DATABASE_URL, a scratch database on that Postgres (dropped at the end).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { deleteAccounts } from "@/lib/accounts/accounts";
import { closeDb, getDbHandle } from "@/lib/db/client";
import { executeRows } from "@/lib/db/rows";
import { accounts, geofences, trackables } from "@/lib/db/schema";
import { candidatesQuery, findCandidates } from "@/lib/geofences/candidates";
import { accountFences, candidatesFromCache } from "@/lib/geofences/fence-cache";
import { contains, type FenceShape, type LatLon } from "@/lib/geofences/evaluation";
import { polygonSummary, type PolygonGeometry } from "@/lib/geofences/shapes";

const GEOFENCES = 10_000;
const BATCH = 1_000;
const totalPoints = Number(process.argv[2] ?? 20_000);
const singlePoints = Math.min(totalPoints, Number(process.argv[3] ?? 2_000));

// Seeded, so every run measures the same geometry.
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(42);

// A 50 km × 50 km region around Paris; points fall in it and in a 10 km band around it.
const CENTRE = { latitude: 48.8566, longitude: 2.3522 };
const HALF_LAT = 25_000 / 111_195;
const HALF_LON = HALF_LAT / Math.cos((CENTRE.latitude * Math.PI) / 180);
const inRegion = (scale: number): LatLon => ({
  latitude: CENTRE.latitude + (random() * 2 - 1) * HALF_LAT * scale,
  longitude: CENTRE.longitude + (random() * 2 - 1) * HALF_LON * scale,
});

/** A star-shaped (so simple, and usually concave) ring of 20 vertices at 50–100 % of `radius` metres around `c`. */
function starPolygon(c: LatLon, radius: number): PolygonGeometry {
  const ring: [number, number][] = [];
  for (let i = 0; i < 20; i++) {
    const angle = (2 * Math.PI * i) / 20;
    const r = radius * (0.5 + random() * 0.5);
    ring.push([c.longitude + (Math.sin(angle) * r) / (111_195 * Math.cos((c.latitude * Math.PI) / 180)), c.latitude + (Math.cos(angle) * r) / 111_195]);
  }
  ring.push(ring[0]!);
  return { type: "Polygon", coordinates: [ring] };
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const sortedIds = (fences: Iterable<FenceShape>, p: LatLon) => [...fences].filter((f) => contains(f, p)).map((f) => f.id).sort();


async function main(): Promise<number> {
  let cleanup = async () => {};
  if (process.env.DATABASE_URL) {
    const scratch = await scratchPostgres(process.env.DATABASE_URL, "fenceline_bench_evaluation");
    process.env.DATABASE_URL = scratch.url;
    cleanup = scratch.drop;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-bench-evaluation-"));
    process.env.DATA_DIR = dir;
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }

  try {
    const t0 = performance.now();
    const { db, kind } = await getDbHandle("cli");
    const [account] = await db.insert(accounts).values({ slug: `bench-evaluation-${randomBytes(4).toString("hex")}`, name: "bench", plan: "enterprise" }).returning();
    const accountId = account!.id;
    const [trackable] = await db.insert(trackables).values({ accountId, name: "bench" }).returning();
    const trackableId = trackable!.id;
    const rows = Array.from({ length: GEOFENCES }, (_, i) => {
      const centre = inRegion(1);
      const radius = 50 + random() * 1_950;
      if (i % 2 === 0) return { accountId, name: `g${i}`, ...centre, radius };
      const geometry = starPolygon(centre, radius);
      return { accountId, name: `g${i}`, shape: "polygon" as const, geometry, ...polygonSummary(geometry) };
    });
    for (let i = 0; i < rows.length; i += 1_000) await db.insert(geofences).values(rows.slice(i, i + 1_000));
    await db.execute(sql`analyze geofences`);
    const points = Array.from({ length: totalPoints }, () => inRegion(1.4));
    console.log(`evaluation bench on ${kind}: ${fmt(GEOFENCES)} geofences (half circles of 50–2,000 m, half 20-vertex polygons of that size) in 50 km × 50 km, ${fmt(totalPoints)} points in and around it; setup ${fmt((performance.now() - t0) / 1000, 1)} s`);

    const plan = (await executeRows<Record<string, string>>(db, sql`explain ${candidatesQuery({ accountId, trackableId, points: points.slice(0, BATCH) })}`)).map(
      (r) => String(Object.values(r)[0]),
    );
    const scan = plan.find((l) => l.includes("Scan on geofences") || l.includes("Scan using")) ?? "(no scan of geofences?)";
    console.log(`plan of a ${fmt(BATCH)}-point query: ${scan.trim()}`);

    // Naive: every geofence loaded once, then a haversine per geofence per point.
    const tl = performance.now();
    const all: FenceShape[] = await db
      .select({ id: geofences.id, latitude: geofences.latitude, longitude: geofences.longitude, radius: geofences.radius, geometry: geofences.geometry })
      .from(geofences)
      .where(eq(geofences.accountId, accountId));
    const loadMs = performance.now() - tl;
    const tn = performance.now();
    const naive = points.map((p) => sortedIds(all, p));
    const naiveS = (performance.now() - tn) / 1000;

    // In memory: the account's fences loaded into the cache once (as evaluation does, by the account's geofences
    // version), then candidatesFromCache for one point per call (a single post) and for 1,000 points per call (a
    // batch: these are spread over the whole region, so it searches the R-tree per point).
    const tc = performance.now();
    const [row] = await executeRows<{ version: number }>(db, sql`select geofences_version as version from ${accounts} where id = ${accountId}`);
    const cached = await accountFences(db, accountId, row!.version);
    const cacheLoadMs = performance.now() - tc;
    const memory = (perCall: number) => {
      const t = performance.now();
      const out: string[][] = [];
      for (let i = 0; i < points.length; i += perCall) {
        const chunk = points.slice(i, i + perCall);
        candidatesFromCache(cached, trackableId, chunk).forEach((candidates, j) => out.push(sortedIds(candidates, chunk[j]!)));
      }
      return { out, s: (performance.now() - t) / 1000 };
    };
    memory(1); // warm-up
    const memorySingle = memory(1);
    const memoryBatch = memory(BATCH);

    // Indexed, one point per query (after a short warm-up).
    for (const p of points.slice(0, 20)) await findCandidates(db, { accountId, trackableId, points: [p] });
    const single: string[][] = [];
    let singleCandidates = 0;
    const ts = performance.now();
    for (const p of points.slice(0, singlePoints)) {
      const [candidates] = await findCandidates(db, { accountId, trackableId, points: [p] });
      singleCandidates += candidates!.length;
      single.push(sortedIds(candidates!, p));
    }
    const singleS = (performance.now() - ts) / 1000;

    // Indexed, BATCH points per query.
    const batched: string[][] = [];
    let batchCandidates = 0;
    const tb = performance.now();
    for (let i = 0; i < points.length; i += BATCH) {
      const chunk = points.slice(i, i + BATCH);
      const lists = await findCandidates(db, { accountId, trackableId, points: chunk });
      lists.forEach((candidates, j) => {
        batchCandidates += candidates.length;
        batched.push(sortedIds(candidates, chunk[j]!));
      });
    }
    const batchS = (performance.now() - tb) / 1000;

    // Agreement, point by point.
    let disagreements = 0;
    const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    points.forEach((p, i) => {
      const paths = [
        ["in memory, 1 point/call", memorySingle.out[i]],
        [`in memory, ${BATCH} points/call`, memoryBatch.out[i]],
        ["SQL, 1 point/query", single[i]],
        [`SQL, ${BATCH} points/query`, batched[i]],
      ] as const;
      for (const [label, got] of paths) {
        if (got !== undefined && !same(got, naive[i]!)) {
          if (++disagreements <= 10) console.error(`DISAGREE at point ${i} (${p.latitude}, ${p.longitude}), ${label}: indexed [${got.join(",")}] naive [${naive[i]!.join(",")}]`);
        }
      }
    });

    const inside = naive.reduce((n, ids) => n + ids.length, 0);
    console.log(
      `per point: ${fmt(inside / points.length, 1)} geofences contain it, the index returns ${fmt(batchCandidates / points.length, 1)} candidates ` +
        `(naive loads ${fmt(GEOFENCES)} once in ${fmt(loadMs)} ms, then tests all ${fmt(GEOFENCES)}; the cache loads them and builds its R-tree in ${fmt(cacheLoadMs)} ms)`,
    );
    const line = (label: string, n: number, s: number) =>
      console.log(`${label.padEnd(36)} ${fmt(n).padStart(8)} pts ${fmt(s, 2).padStart(8)} s ${fmt(n / s).padStart(10)} checks/s`);
    line("naive loop (10,000 exact tests/point)", points.length, naiveS);
    line("in memory (R-tree), 1 point/call", points.length, memorySingle.s);
    line(`in memory (R-tree), ${fmt(BATCH)} points/call`, points.length, memoryBatch.s);
    line("SQL (GiST), 1 point/query", singlePoints, singleS);
    line(`SQL (GiST), ${fmt(BATCH)} points/query`, points.length, batchS);
    console.log(`single-query candidates/point: ${fmt(singleCandidates / singlePoints, 1)}`);
    const times = (s: number, n: number) => `${fmt(naiveS / points.length / (s / n), 1)}×`;
    console.log(
      `throughput against the naive loop: in memory ${times(memorySingle.s, points.length)} (1 point/call) and ${times(memoryBatch.s, points.length)} (${fmt(BATCH)}/call), ` +
        `what evaluation uses; SQL ${times(singleS, singlePoints)} (1/query) and ${times(batchS, points.length)} (${fmt(BATCH)}/query)`,
    );

    await deleteAccounts(db, [accountId]);
    if (disagreements > 0) {
      console.error(`FAIL: the indexed path and the naive loop disagree on ${fmt(disagreements)} point results`);
      return 1;
    }
    console.log(`OK: every path agrees with the naive loop on all ${fmt(points.length)} points (the SQL one by one on the first ${fmt(singlePoints)})`);
    return 0;
  } finally {
    await closeDb();
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
