// Motion's part of an evaluation round (lib/motion/round.ts) during a drive, one new fix per round, with a short open
// trip and with a long one: resumed from the stored state (what the round does) beside the baseline that recomputes
// from the last stop (the stored state cleared before each round, so the round re-reads the whole open trip, as it
// did before the state was kept). Two trackables per trip length with the same fixes, one per way, their rounds
// alternating; at the end the two trackables' trips must be equal (exit 1 if not). Prints medians and p95s of the
// round's time (motionRound and its writes in one transaction; the fix's insert is not timed).
// Usage: npx tsx bench/motion-round.ts [rounds=200] [longTripFixes=1100]
//   PGlite in a temp directory by default; with DATABASE_URL, a scratch database on that Postgres (dropped at the end).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { v7 } from "uuid";
import { deleteAccounts } from "@/lib/accounts/accounts";
import { closeDb, getDbHandle, type Db } from "@/lib/db/client";
import { accounts, locations, trackableStates, trackables, trips } from "@/lib/db/schema";
import type { Owner } from "@/lib/geofences/round-state";
import { motionRound } from "@/lib/motion/round";
import { scratchPostgres } from "@/tests/support/scratch-db";
import { fmt, loadAverage } from "./lib";

const rounds = Number(process.argv[2] ?? 200);
const longTrip = Number(process.argv[3] ?? 1100);
const SHORT_TRIP = 10;
const M_PER_DEG = 111_195;
/** Two days ago: the drive's fixes are history, timestamped 5 s apart at 15 m/s north. */
const T0 = Date.now() - 2 * 86_400_000;

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;

/**
 * Fix `i` of the day: parked for 10 minutes (a fix every 30 s), then driving (a fix every 5 s). Its id is made at its
 * time, as when a device posts each fix as it happens: the round's watermark then trails the newest fix by 10 s of
 * the drive (a history inserted at once would have every id within the watermark's 10 s, seen again by each round).
 */
function fixAt(trackableId: string, i: number) {
  const parked = 21;
  const s = i < parked ? i * 30 : 600 + (i - parked + 1) * 5;
  const north = i < parked ? 0 : (i - parked + 1) * 5 * 15;
  return { id: v7({ msecs: T0 + s * 1000 + 50 }), trackableId, latitude: 52.5 + north / M_PER_DEG, longitude: 13.4, accuracy: 8, timestamp: new Date(T0 + s * 1000) };
}

async function round(db: Db, owner: Owner) {
  const t = performance.now();
  await db.transaction(async (tx) => {
    const motion = await motionRound(tx, [owner]);
    await Promise.all(motion.writes);
  });
  return performance.now() - t;
}

async function main(): Promise<number> {
  let cleanup = async () => {};
  if (process.env.DATABASE_URL) {
    const scratch = await scratchPostgres(process.env.DATABASE_URL, "fenceline_bench_motion");
    process.env.DATABASE_URL = scratch.url;
    cleanup = scratch.drop;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-bench-motion-"));
    process.env.DATA_DIR = dir;
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  let failed = false;
  try {
    const { db, kind } = await getDbHandle("cli");
    const [account] = await db.insert(accounts).values({ slug: `bench-motion-${randomBytes(4).toString("hex")}`, name: "bench", plan: "enterprise" }).returning();
    console.log(`motion round bench on ${kind}: ${fmt(rounds)} rounds of one new fix each, per trip length and way; load average ${loadAverage()}`);
    try {
      for (const tripFixes of [SHORT_TRIP, longTrip]) {
        // Two trackables with the same day so far; each round adds the next fix to both.
        const made = await db
          .insert(trackables)
          .values([0, 1].map((i) => ({ accountId: account!.id, name: `t${tripFixes}-${i}` })))
          .returning();
        const owners: Owner[] = made.map((t) => ({ id: t.id, name: t.name, type: t.type, accountId: t.accountId, plan: "enterprise", geofencesVersion: 0 }));
        await db.insert(trackableStates).values(owners.map((o) => ({ trackableId: o.id, accountId: o.accountId })));
        let next = 21 + tripFixes - 1; // the parked fixes and the trip's (its first is the last parked fix)
        for (const o of owners) await db.insert(locations).values(Array.from({ length: next }, (_, i) => fixAt(o.id, i)));
        await db.execute(sql`analyze locations`);
        for (const o of owners) await round(db, o); // takes the day so far in, not timed
        const resumed: number[] = [];
        const recomputed: number[] = [];
        for (let r = 0; r < rounds; r++, next++) {
          for (const o of owners) await db.insert(locations).values(fixAt(o.id, next));
          resumed.push(await round(db, owners[0]!));
          await db.update(trackableStates).set({ motionState: null }).where(eq(trackableStates.trackableId, owners[1]!.id));
          recomputed.push(await round(db, owners[1]!));
        }
        const stored = await db
          .select({ owner: trips.trackableId, startedAt: trips.startedAt, distance: trips.distance, maxSpeed: trips.maxSpeed, pointCount: trips.pointCount, status: trips.status })
          .from(trips)
          .where(inArray(trips.trackableId, owners.map((o) => o.id)));
        const of = (id: string) => JSON.stringify(stored.filter((t) => t.owner === id).map((t) => [t.startedAt, t.distance, t.maxSpeed, t.pointCount, t.status]));
        const same = of(owners[0]!.id) === of(owners[1]!.id);
        const open = stored.find((t) => t.owner === owners[0]!.id && t.status === "ongoing");
        if (!same || !open) failed = true;
        console.log(
          `  open trip of ${fmt(tripFixes)} → ${fmt(open?.pointCount ?? 0)} fixes: resumed median ${fmt(pct(resumed, 0.5), 2)} ms (p95 ${fmt(pct(resumed, 0.95), 2)}), ` +
            `recomputed from the stop (baseline) median ${fmt(pct(recomputed, 0.5), 2)} ms (p95 ${fmt(pct(recomputed, 0.95), 2)}); same trips: ${same}`,
        );
      }
    } finally {
      await deleteAccounts(db, [account!.id]);
    }
  } finally {
    await closeDb();
    await cleanup();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
