// Where a coalesced evaluation round spends its CPU: 16 trackables × 100 new points against an account with
// [fences] geofences (createFences' layout, half 20-vertex polygons), on a scratch Postgres database, [rounds] times.
// Usage: npx tsx bench/profile-evaluation.ts [fences=1000] [rounds=30] [track=continuous|restart] (trackBatch) [timed]
// (`timed`: each point stamped BATCH_FIX_SECONDS after the one before, as timedBatchOf does, so that motion sees a drive;
// without it a round's points share one time.)
// With BENCH_CPU_PROF=<dir>, a CPU profile of the rounds (and of the script's own inserts between them, under main),
// without the set-up, is written there; with BENCH_HEAP_PROF=<dir>, a sampling heap profile of the same (V8's
// allocation sampling, every 32 KB on average, objects collected since included: what was allocated, not what is kept).
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { newId } from "@/lib/db/ids";
import { accounts, geofences, locations, trackables } from "@/lib/db/schema";
import { evaluateTrackables } from "@/lib/geofences/evaluate-trackable";
import { openUnitDb } from "@/tests/support/unit-db";
import { BATCH_FIX_SECONDS, fenceBody, fmt, mainThreadMs, postgresMs, trackBatch } from "./lib";

const fenceCount = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 30);
const track = process.argv[4] === "restart" ? "restart" : "continuous";
const timed = process.argv[5] === "timed";

async function main() {
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";
  const unit = await openUnitDb("profile");
  try {
    const ctx = await unit.account("enterprise");
    const rows = Array.from({ length: fenceCount }, (_, i) => fenceBody(i)).map((b) => ({ accountId: ctx.account.id, ...b }));
    if (rows.length > 0) await unit.db.insert(geofences).values(rows);
    await unit.db.update(accounts).set({ geofencesVersion: sql`${accounts.geofencesVersion} + 1` });
    const ts = await unit.db
      .insert(trackables)
      .values(Array.from({ length: 16 }, (_, i) => ({ accountId: ctx.account.id, name: `t${i}` })))
      .returning({ id: trackables.id });
    const ids = ts.map((t) => t.id);
    let points = 0;
    let events = 0;
    let ms = 0;
    let appMs = 0;
    let mainMs = 0;
    // Postgres's CPU is read in clock ticks (10 ms): over the whole loop, the script's own inserts included.
    const db0 = postgresMs();
    const profileDir = process.env.BENCH_CPU_PROF;
    const profiler = profileDir ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const heapDir = process.env.BENCH_HEAP_PROF;
    const heap = heapDir ? new Session() : null;
    if (heap) {
      heap.connect();
      await heap.post("HeapProfiler.enable");
      await heap.post("HeapProfiler.startSampling", { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    for (let r = 0; r < rounds; r++) {
      const at = new Date(Date.UTC(2026, 10, 23, 8) + r * 1000);
      // One unnest insert (cheap to build), so that a profile shows the evaluation rather than this script's writes.
      const batch = trackBatch(r, track);
      const first = Date.UTC(2026, 10, 23, 8) + r * batch.length * BATCH_FIX_SECONDS * 1000;
      const rows = ids.flatMap((trackableId) =>
        batch.map((p, k) => ({ id: newId(), trackableId, ...p, timestamp: timed ? new Date(first + k * BATCH_FIX_SECONDS * 1000).toISOString() : at.toISOString() })),
      );
      await unit.db.execute(sql`insert into ${locations} (id, trackable_id, latitude, longitude, accuracy, battery, timestamp, received_at)
        select id, trackable_id, latitude, longitude, accuracy, battery, timestamp, ${at.toISOString()}::timestamptz
        from unnest(${sql.raw(`'{${rows.map((r) => r.id).join(",")}}'::uuid[]`)}, ${sql.raw(`'{${rows.map((r) => r.trackableId).join(",")}}'::uuid[]`)},
          ${sql.raw(`'{${rows.map((r) => r.latitude).join(",")}}'::float8[]`)}, ${sql.raw(`'{${rows.map((r) => r.longitude).join(",")}}'::float8[]`)},
          ${sql.raw(`'{${rows.map((r) => r.accuracy).join(",")}}'::float8[]`)}, ${sql.raw(`'{${rows.map((r) => r.battery).join(",")}}'::float8[]`)},
          ${sql.raw(`'{${rows.map((r) => `"${r.timestamp}"`).join(",")}}'::timestamptz[]`)})
          as u(id, trackable_id, latitude, longitude, accuracy, battery, timestamp)`);
      const t0 = performance.now();
      const app0 = process.cpuUsage();
      const main0 = mainThreadMs(process.pid);
      let left = ids;
      while (left.length > 0) {
        const result = await evaluateTrackables(left);
        points += result.evaluated;
        events += result.transitions;
        left = result.more;
      }
      ms += performance.now() - t0;
      const app = process.cpuUsage(app0);
      appMs += (app.user + app.system) / 1000;
      mainMs += mainThreadMs(process.pid) - main0;
    }
    const databaseMs = postgresMs() - db0;
    if (profiler && profileDir) {
      const { profile } = await profiler.post("Profiler.stop");
      const file = path.join(profileDir, `evaluation-${fenceCount}-${Date.now()}.cpuprofile`);
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`CPU profile of the rounds: ${file}`);
    }
    if (heap && heapDir) {
      const { profile } = await heap.post("HeapProfiler.stopSampling");
      const file = path.join(heapDir, `evaluation-${fenceCount}-${Date.now()}.heapprofile`);
      fs.mkdirSync(heapDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`sampling heap profile of the rounds: ${file}`);
    }
    console.log(`${fmt(fenceCount)} fences, ${track} track: ${fmt(points)} points in ${fmt(ms)} ms (${fmt((ms * 1000) / points, 1)} µs a point), ${fmt(events)} transitions; ` +
        `CPU ${fmt((appMs * 1000) / points, 1)} µs a point in this process (${fmt((mainMs * 1000) / points, 1)} on its main thread), ${fmt((databaseMs * 1000) / points, 1)} µs in Postgres (with this script's inserts)`,
    );
  } finally {
    await unit.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
