// A day's trips, stops and summary of a trackable with 1,000,000 stored points, through the API, beside the same
// reads of a trackable with 10,000 points (the baseline) on the same server, calls alternating between the two.
// Usage: npx tsx bench/motion-day.ts [points=1000000] [baselinePoints=10000] [calls=60]
//   PGlite in a temp directory by default; with DATABASE_URL, a scratch database on that Postgres (dropped at the end).
//   BENCH_APP_DIR=<dir> serves another checkout's built app (see bench/lib.ts).
//
// The history is day after day (441 days for 1,000,000 points: a drive fix every 5 s, a parked fix every 60 s, six drives a day between four
// places), inserted through lib/db/bulk's insertUnnested a month at a time, each month followed by the motion round
// (lib/motion/round.ts, as the evaluation runs it) that takes it in: trips and stops come from the product's code.
// The server is stopped while the history goes in (the embedded database serves one process), then started again
// and timed; the trips read's plan (EXPLAIN ANALYZE) is printed for both trackables.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { v7 } from "uuid";
import { insertUnnested } from "@/lib/db/bulk";
import { closeDb, getDbHandle, type Db } from "@/lib/db/client";
import { queryRows } from "@/lib/db/rows";
import { locations, trackables } from "@/lib/db/schema";
import type { Owner } from "@/lib/geofences/round-state";
import { motionRound } from "@/lib/motion/round";
import { startServer } from "@/tests/harness/server";
import { scratchPostgres } from "@/tests/support/scratch-db";
import { benchApp, fmt, loadAverage, provisionKey } from "./lib";

const total = Number(process.argv[2] ?? 1_000_000);
const baselineTotal = Number(process.argv[3] ?? 10_000);
const calls = Math.max(50, Number(process.argv[4] ?? 60));

const DAY = 86_400_000;
/** The history's first midnight (UTC). */
const START = Date.parse("2025-01-01T00:00:00Z");
const M_PER_DEG = 111_195;
/** Home, work, a shop and a friend's, 3–12 km apart. */
const PLACES: [number, number][] = [
  [52.52, 13.4],
  [52.55, 13.52],
  [52.47, 13.45],
  [52.5, 13.3],
];

/** A small deterministic generator (mulberry32), so every run seeds the same history. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fix = { time: number; latitude: number; longitude: number; accuracy: number };

/**
 * Day `d`'s fixes: parked (a fix every 60 s, a few metres of jitter) with six drives from 07:00 on, each from the
 * place it is at to the next at 10–16 m/s (a fix every 5 s), 1–3 hours apart.
 */
function day(d: number, rnd: () => number): Fix[] {
  const out: Fix[] = [];
  const t0 = START + d * DAY;
  let at = 0;
  let time = t0;
  const park = (until: number) => {
    const [lat, lon] = PLACES[at]!;
    for (; time < until; time += 60_000) out.push({ time, latitude: lat + (rnd() - 0.5) * 6e-5, longitude: lon + (rnd() - 0.5) * 9e-5, accuracy: 8 + rnd() * 10 });
  };
  let next = t0 + 7 * 3_600_000;
  for (let k = 0; k < 6; k++) {
    park(next);
    const to = (at + 1 + Math.floor(rnd() * 3)) % PLACES.length;
    const [aLat, aLon] = PLACES[at]!;
    const [bLat, bLon] = PLACES[to]!;
    const metres = Math.hypot((bLat - aLat) * M_PER_DEG, (bLon - aLon) * M_PER_DEG * Math.cos((aLat * Math.PI) / 180));
    const steps = Math.ceil(metres / ((10 + rnd() * 6) * 5));
    for (let s = 1; s <= steps; s++) {
      time += 5_000;
      out.push({ time, latitude: aLat + ((bLat - aLat) * s) / steps, longitude: aLon + ((bLon - aLon) * s) / steps, accuracy: 5 + rnd() * 5 });
    }
    at = to;
    next = time + (1 + rnd() * 2) * 3_600_000;
  }
  park(t0 + DAY);
  return out;
}

/** Seeds `count` points of days from START on for the trackable, a month a time, each month taken in by a motion round. */
async function seed(db: Db, owner: Owner, count: number): Promise<{ days: number; seconds: number; motionSeconds: number }> {
  const rnd = random(owner.id.charCodeAt(0) * 7919);
  let left = count;
  let d = 0;
  let motionMs = 0;
  const started = performance.now();
  while (left > 0) {
    const month: Fix[] = [];
    for (let k = 0; k < 30 && left > month.length; k++, d++) month.push(...day(d, rnd));
    const fixes = month.slice(0, left);
    left -= fixes.length;
    for (let i = 0; i < fixes.length; i += 20_000) {
      const rows = fixes.slice(i, i + 20_000).map((f) => ({
        // A fix's id is made at its time, as when the device posts it as it happens (motion's watermark follows ids).
        id: v7({ msecs: f.time + 50 }),
        trackableId: owner.id,
        latitude: f.latitude,
        longitude: f.longitude,
        accuracy: f.accuracy,
        timestamp: new Date(f.time),
        receivedAt: new Date(f.time + 50),
        source: "api" as const,
      }));
      await insertUnnested(db, locations, rows);
    }
    const m = performance.now();
    await db.transaction(async (tx) => {
      const round = await motionRound(tx, [owner]);
      await Promise.all(round.writes);
    });
    motionMs += performance.now() - m;
  }
  // The evaluation stands at the newest fix, as after live ingest: the server starts with nothing to catch up on.
  await db.execute(sql`update trackable_states s set evaluated_timestamp = l.timestamp, evaluated_location_id = l.id
    from (select timestamp, id from locations where trackable_id = ${owner.id} order by timestamp desc, id desc limit 1) l
    where s.trackable_id = ${owner.id}`);
  return { days: d, seconds: (performance.now() - started) / 1000, motionSeconds: motionMs / 1000 };
}

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;

async function main() {
  const appDir = benchApp();
  const scratch = process.env.DATABASE_URL ? await scratchPostgres(process.env.DATABASE_URL, "fenceline_bench_motion_day") : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-bench-motion-day-"));
  if (scratch) process.env.DATABASE_URL = scratch.url;
  else process.env.DATA_DIR = dataDir;
  const serverOpts = { appDir, dataDir, databaseUrl: scratch?.url, env: { RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" } };
  try {
    // The account and its two trackables through the API; then the server stops while the history goes in.
    let app = await startServer(serverOpts);
    const key = await provisionKey(app, "motion-day", "enterprise");
    const headers = { Authorization: `Bearer ${key}` };
    const made: string[] = [];
    for (const name of ["a year", "baseline"]) {
      const res = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
      made.push(((await res.json()) as { id: string }).id);
    }
    await app.stop();

    const { db, kind } = await getDbHandle("cli");
    console.log(`motion day bench on ${kind}: ${fmt(total)} points against ${fmt(baselineTotal)}, ${calls} calls each; load average ${loadAverage()}`);
    const owners: Owner[] = [];
    for (const id of made) {
      const [t] = await db.select().from(trackables).where(eq(trackables.id, id));
      owners.push({ id, name: t!.name, type: t!.type, accountId: t!.accountId, plan: "enterprise", geofencesVersion: 0 });
    }
    const [big, small] = owners as [Owner, Owner];
    const seeded = [await seed(db, big, total), await seed(db, small, baselineTotal)];
    await db.execute(sql`analyze`);
    const counted = async (o: Owner) => {
      const [row] = await queryRows<{ points: number; trips: number; stops: number }>(
        db,
        `select (select count(*)::int from locations where trackable_id = $1) as points, (select count(*)::int from trips where trackable_id = $1) as trips,
          (select count(*)::int from stops where trackable_id = $1) as stops`,
        [o.id],
      );
      return row!;
    };
    const counts = [await counted(big), await counted(small)];
    seeded.forEach((s, i) =>
      console.log(
        `  ${i === 0 ? "large   " : "baseline"} ${fmt(counts[i]!.points)} points over ${s.days} days, ${fmt(counts[i]!.trips)} trips, ${fmt(counts[i]!.stops)} stops: ` +
          `seeded in ${fmt(s.seconds, 1)} s, of which the motion rounds ${fmt(s.motionSeconds, 1)} s`,
      ),
    );
    // A day in the middle of each history (the baseline's is shorter).
    const dayOf = (s: { days: number }) => {
      const from = new Date(START + Math.floor(s.days / 2) * DAY);
      return { from: from.toISOString(), to: new Date(from.getTime() + DAY).toISOString() };
    };
    const ranges = seeded.map(dayOf);
    for (const [i, o] of owners.entries()) {
      const { from, to } = ranges[i]!;
      // The statement listTrips (lib/motion/trips.ts) sends for ?trackableId=&from=&to= (limit 20, one more to page).
      const plan = await queryRows<Record<string, string>>(
        db,
        `explain analyze select * from trips where account_id = $1 and trackable_id = $2 and (ended_at is null or ended_at >= $3) and started_at <= $4
          order by started_at desc, id desc limit 21`,
        [o.accountId, o.id, from, to],
      );
      console.log(`  trips plan (${i === 0 ? "large" : "baseline"}): ${plan.map((r) => Object.values(r)[0]!.trim()).join(" / ")}`);
    }
    await closeDb();

    app = await startServer(serverOpts);
    try {
      const reads: [string, (id: string, r: { from: string; to: string }) => string][] = [
        ["GET /trips?trackableId=&from=&to=", (id, r) => `/api/v1/trips?trackableId=${id}&from=${r.from}&to=${r.to}`],
        ["GET /stops?trackableId=&from=&to=", (id, r) => `/api/v1/stops?trackableId=${id}&from=${r.from}&to=${r.to}`],
        ["GET /reports/summary (one day)", (id, r) => `/api/v1/reports/summary?trackableId=${id}&from=${r.from}&to=${r.to}`],
      ];
      for (const [label, url] of reads) {
        const times: number[][] = [[], []];
        const sizes = [0, 0];
        // Three warm-up calls each, then the two trackables alternate, so the machine's drift falls on both alike.
        for (let c = 0; c < calls + 3; c++) {
          for (const [i, o] of owners.entries()) {
            const t = performance.now();
            const res = await fetch(`${app.baseUrl}${url(o.id, ranges[i]!)}`, { headers });
            const body = (await res.json()) as { data?: unknown[]; days?: unknown[] };
            if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status} ${JSON.stringify(body)}`);
            if (c >= 3) times[i]!.push(performance.now() - t);
            sizes[i] = (body.data ?? body.days ?? []).length;
          }
        }
        const show = (i: number) => `median ${fmt(pct(times[i]!, 0.5), 1)} ms, p95 ${fmt(pct(times[i]!, 0.95), 1)} ms (${sizes[i]} rows)`;
        console.log(`  ${label.padEnd(36)} ${fmt(total)} points: ${show(0)}   ${fmt(baselineTotal)} points: ${show(1)}`);
      }
    } finally {
      await app.stop();
    }
    console.log(`load average at the end ${loadAverage()}`);
  } finally {
    await closeDb();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
