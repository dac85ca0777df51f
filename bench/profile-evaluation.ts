// Where a coalesced evaluation round spends its CPU: 16 trackables × 100 new points against an account with
// [fences] geofences (createFences' layout, half 20-vertex polygons), on a scratch Postgres database, [rounds] times.
// Usage: npx tsx bench/profile-evaluation.ts [fences=1000] [rounds=30]; add --cpu-prof to node for a profile.
import { sql } from "drizzle-orm";
import { newId } from "@/lib/db/ids";
import { accounts, geofences, locations, trackables } from "@/lib/db/schema";
import { evaluateTrackables } from "@/lib/geofences/evaluate-trackable";
import { openUnitDb } from "@/tests/support/unit-db";
import { fenceBody, fmt, point } from "./lib";

const fenceCount = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 30);

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
    for (let r = 0; r < rounds; r++) {
      const at = new Date(Date.UTC(2026, 10, 23, 8) + r * 1000);
      // One unnest insert (cheap to build), so that a profile shows the evaluation rather than this script's writes.
      const rows = ids.flatMap((trackableId) => Array.from({ length: 100 }, (_, i) => ({ id: newId(), trackableId, ...point(i) })));
      await unit.db.execute(sql`insert into ${locations} (id, trackable_id, latitude, longitude, accuracy, battery, timestamp, received_at)
        select id, trackable_id, latitude, longitude, accuracy, battery, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
        from unnest(${sql.raw(`'{${rows.map((r) => r.id).join(",")}}'::uuid[]`)}, ${sql.raw(`'{${rows.map((r) => r.trackableId).join(",")}}'::uuid[]`)},
          ${sql.raw(`'{${rows.map((r) => r.latitude).join(",")}}'::float8[]`)}, ${sql.raw(`'{${rows.map((r) => r.longitude).join(",")}}'::float8[]`)},
          ${sql.raw(`'{${rows.map((r) => r.accuracy).join(",")}}'::float8[]`)}, ${sql.raw(`'{${rows.map((r) => r.battery).join(",")}}'::float8[]`)})
          as u(id, trackable_id, latitude, longitude, accuracy, battery)`);
      const t0 = performance.now();
      let left = ids;
      while (left.length > 0) {
        const result = await evaluateTrackables(left);
        points += result.evaluated;
        events += result.transitions;
        left = result.more;
      }
      ms += performance.now() - t0;
    }
    console.log(`${fmt(fenceCount)} fences: ${fmt(points)} points in ${fmt(ms)} ms (${fmt((ms * 1000) / points, 1)} µs a point), ${fmt(events)} transitions`);
  } finally {
    await unit.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
