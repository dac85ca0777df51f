// Where Postgres's time goes, statement by statement, for 100-point batches with and without fences
// (the batch figure of the 1,000-fence ratio), or for single device posts (`traccar`: the /ingest/traccar query form): pg_stat_statements'
// totals over one run of each, per request.
// Usage: [BENCH_MOTION=off] DATABASE_URL=postgres://postgres@127.0.0.1:5433/test npx tsx bench/pg-statements.ts [seconds=8] [concurrency=16] [fences=1000] [continuous|restart|traccar]
// Beside each statement: its WAL bytes and full-page images per request (pg_stat_statements counts both).
//
// Needs a Postgres with pg_stat_statements preloaded (shared_preload_libraries) and the extension created in the
// database of DATABASE_URL; the machine's own Postgres has neither, so run one aside, e.g.
//   initdb -D /tmp/pgb/data -A trust -U postgres
//   pg_ctl -D /tmp/pgb/data -o "-p 5433 -c shared_preload_libraries=pg_stat_statements -c autovacuum=off" start
//   psql -p 5433 test -c "create extension pg_stat_statements"
import postgres from "postgres";
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { HISTORY_INSERT, PG_BASE, benchAccount, createFences, evaluationsDrained, fmt, load, scratchDatabase, traccarPost, timedBatchOf, withoutMotionInbox, type BenchAccount, type Post } from "./lib";

const seconds = Number(process.argv[2] ?? 8);
const concurrency = Number(process.argv[3] ?? 16);
const fenceCount = Number(process.argv[4] ?? 1000);
const mode = (process.argv[5] ?? "continuous") as "continuous" | "restart" | "traccar";
/**
 * BENCH_HISTORY=<n>: after the warm-up (when the statements have been prepared and planned on small tables), n older
 * points are stored for each of the account's trackables, so a plan that reads a trackable's history shows.
 */
const history = Number(process.env.BENCH_HISTORY ?? 0);
/**
 * BENCH_MOTION=off: the server without motion (FENCELINE_BENCH_NO_MOTION=1, and its database without motion's inbox, as
 * bench/throughput.ts's motion-off server: withoutMotionInbox), so the statements with motion can be read against those without.
 */
const motionOff = process.env.BENCH_MOTION === "off";

async function main() {
  buildIfStale();
  const stats = postgres(PG_BASE, { max: 1, onnotice: () => {} });
  const db = await scratchDatabase("fenceline_stmts");
  const [database] = await stats`select oid::int from pg_database where datname = ${new URL(db.url).pathname.slice(1)}`;
  const oid = database!.oid as number;
  const scratch = postgres(db.url, { max: 1, onnotice: () => {} });
  const app = await startServer({
    databaseUrl: db.url,
    env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "", ...(motionOff ? { FENCELINE_BENCH_NO_MOTION: "1" } : {}) },
  });
  if (motionOff) await withoutMotionInbox(db.url);
  const port = Number(new URL(app.baseUrl).port);
  try {
    const plain = await benchAccount(app, "bench-plain", concurrency);
    const fenced = await benchAccount(app, "bench-fenced", concurrency);
    await createFences(app.baseUrl, fenced.headers, fenceCount);
    const batches = (acc: BenchAccount, track: "continuous" | "restart") => {
      const batchOf = timedBatchOf(acc.trackables, track);
      return (i: number): Post => ({
        path: `/api/v1/trackables/${acc.trackables[i % acc.trackables.length]}/locations`,
        body: JSON.stringify(batchOf(i)),
        headers: acc.headers,
      });
    };
    const posts = (acc: BenchAccount) => (mode === "traccar" ? traccarPost(acc.tokens) : batches(acc, mode));
    const unit = mode === "traccar" ? "post" : "batch";
    const run = async (label: string, acc: BenchAccount) => {
      await load(port, posts(acc), { concurrency, seconds: 2 }); // warm-up
      await evaluationsDrained(scratch);
      if (history > 0) {
        await scratch.unsafe(HISTORY_INSERT, [acc.trackables, 1, history, "2025-01-01T00:00:00Z", "traccar"]);
      }
      await stats`select pg_stat_statements_reset()`;
      const r = await load(port, posts(acc), { concurrency, seconds });
      await evaluationsDrained(scratch);
      const rows = await stats`
        select calls::int, total_exec_time::float8 as ms, rows::int, wal_bytes::float8 as wal, wal_fpi::int as fpi, query from pg_stat_statements
        where dbid = ${oid} order by total_exec_time desc limit 25`;
      const total = rows.reduce((s, x) => s + (x.ms as number), 0);
      const rate = mode === "traccar" ? `${fmt(r.perSecond)} posts/s` : `${fmt(r.perSecond * 100)} points/s`;
      console.log(`\n${label}: ${fmt(r.requests)} ${unit}s, ${rate}; statements' execution ${fmt((total / r.requests) * 1000)} µs per ${unit}`);
      console.log(`µs/${unit}  calls/${unit}  rows/call  WAL B/${unit}  FPI/${unit}  statement`.replace(/^(\S+)/, (m) => m.padStart(8)));
      const per = (v: unknown, digits = 0) => fmt((v as number) / r.requests, digits);
      for (const x of rows) {
        const q = (x.query as string).replace(/\s+/g, " ").slice(0, 150);
        console.log(`${per((x.ms as number) * 1000).padStart(8)}  ${per(x.calls, 2).padStart(11)}  ${fmt((x.rows as number) / Math.max(1, x.calls as number), 1).padStart(9)}  ${per(x.wal).padStart(11)}  ${per(x.fpi, 2).padStart(9)}  ${q}`);
      }
    };
    const what = mode === "traccar" ? "single /ingest/traccar post" : `100-point batch (${mode})`;
    const older = history > 0 ? `, ${fmt(history)} older points per trackable stored after the warm-up` : "";
    console.log(`statements per ${what}, ${seconds} s per run, ${concurrency} clients, ${fmt(fenceCount)} fences${older}${motionOff ? ", motion off" : ""}`);
    await run("without fences", plain);
    await run(`with ${fmt(fenceCount)} fences`, fenced);
  } finally {
    await app.stop();
    await scratch.end();
    await stats.end();
    await db.drop();
  }
}


main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
