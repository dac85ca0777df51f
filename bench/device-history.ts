// A device post's cost as its trackable's stored history grows: the time of one /ingest-style store (ingestLocations
// from a device token: the token's lock, the resend check, the insert, the evaluation queued) with 0 to [max] points
// already stored for the trackable, beside a bare one-row insert into the same table (the device posts' baseline in bench/throughput.ts), on the
// embedded database (no DATABASE_URL) or on Postgres.
//
// As a server runs: the connection prepares its statements once, at the first posts, on a fresh install's empty
// table, and Postgres keeps the plan it chose then (a generic plan, after five executions) until something
// invalidates it, such as an ANALYZE of the table. PGlite runs no autovacuum, so on the embedded database that is
// never; on Postgres, autovacuum's ANALYZE replans now and then. The history then grows under that plan. The last line
// is the largest history again after an ANALYZE (a fresh plan, made knowing the table).
// Usage: [DATABASE_URL=postgres://…] npx tsx bench/device-history.ts [max=1000000] [posts=300]
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/rows";
import { createDeviceToken } from "@/lib/devices/tokens";
import { ingestLocations } from "@/lib/locations/locations";
import { createTrackable } from "@/lib/trackables/trackables";
import { openUnitDb } from "@/tests/support/unit-db";
import { HISTORY_INSERT, fmt } from "./lib";

const max = Number(process.argv[2] ?? 1_000_000);
const posts = Number(process.argv[3] ?? 300);
const sizes = [0, 10_000, 100_000, 1_000_000, 10_000_000].filter((n) => n <= max);

async function main() {
  const where = process.env.DATABASE_URL ? "Postgres" : "embedded PGlite";
  const unit = await openUnitDb("device-history");
  try {
    const ctx = await unit.account();
    const trackable = await createTrackable({ ctx, input: { name: "history", type: "device", metadata: {} } });
    const token = await createDeviceToken({ ctx, trackableId: trackable.id, input: {} });
    const tokenId = token.id;
    const db = unit.db;
    let stored = 0;
    let clock = Date.parse("2026-06-01T00:00:00Z");

    const devicePost = async () => {
      clock += 1000;
      await ingestLocations({
        ctx,
        trackableId: trackable.id,
        inputs: [{ latitude: 52.5 + (clock % 1000) / 1e5, longitude: 13.4, accuracy: 5, battery: 80, timestamp: new Date(clock) }],
        source: { kind: "device", app: "traccar", tokenId },
      });
    };
    const bareInsert = async () => {
      clock += 1000;
      await db.execute(sql`insert into locations (id, trackable_id, latitude, longitude, accuracy, battery, timestamp, received_at, source)
        values (gen_random_uuid(), ${trackable.id}, ${52.5 + (clock % 1000) / 1e5}, 13.4, 5, 80, ${new Date(clock).toISOString()}::timestamptz, now(), 'traccar')`);
    };
    /** Mean ms per call over `posts` calls, after 20 warm-up calls; the two kinds interleaved in rounds of 10. */
    const measure = async () => {
      for (let i = 0; i < 20; i++) {
        await devicePost();
        await bareInsert();
      }
      let device = 0;
      let bare = 0;
      for (let done = 0; done < posts; done += 10) {
        let t0 = performance.now();
        for (let i = 0; i < 10; i++) await devicePost();
        device += performance.now() - t0;
        t0 = performance.now();
        for (let i = 0; i < 10; i++) await bareInsert();
        bare += performance.now() - t0;
      }
      const n = Math.ceil(posts / 10) * 10;
      return { device: device / n, bare: bare / n };
    };

    console.log(`device post against the trackable's stored history, ${where}, ${fmt(posts)} posts per figure (mean ms per post)`);
    console.log("points stored                  device post  bare insert  ratio");
    const line = (label: string, r: { device: number; bare: number }) =>
      console.log(`${label.padEnd(29)} ${fmt(r.device, 3).padStart(12)}  ${fmt(r.bare, 3).padStart(11)}  ${fmt(r.device / r.bare, 2).padStart(5)}`);
    for (const size of sizes) {
      if (size > stored) {
        // Older than anything the measurements post, one a second; latitudes vary so no two points match.
        await queryRows(db, HISTORY_INSERT, [[trackable.id], stored + 1, size, "2026-01-01T00:00:00Z", "traccar"]);
        stored = size;
      }
      line(`${fmt(size)}, as the server runs`, await measure());
    }
    await db.execute(sql`analyze locations`);
    line(`${fmt(stored)}, after ANALYZE`, await measure());
  } finally {
    await unit.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
