// What motion costs ingest, with the two servers loaded AT ONCE: one app server with motion and one without
// (FENCELINE_BENCH_NO_MOTION=1, and no motion trigger: withoutMotionInbox), each on a fresh scratch database of its
// own, each posting 100-point batches of the bench's street (timedBatchOf) from half the clients, for the same
// seconds. Runs made one after the other (bench/throughput.ts's BENCH_MOTION=compare) see the shared machine's speed
// move by up to 40 % between them; here both servers share the same seconds of it, so that drift falls on both alike.
// Each server's rate counts its own catch-up (the evaluation still under way when the posts stop, waited for on both
// at once), and its CPU a batch is its process's plus its own database's Postgres backends' (told apart by the
// database name in their command line).
// BENCH_PG_STATS=1 (on a Postgres with pg_stat_statements preloaded and created in DATABASE_URL's database, as
// bench/pg-statements.ts sets one up): at the end, each server's statements with the most of Postgres's time, a batch.
// Usage: npx tsx bench/motion-cost.ts [seconds=8] [concurrency=16] [groups=3], or
// BENCH_MOTION=together npx tsx bench/throughput.ts [seconds] [concurrency] 0 motion [groups] (the same runs).
// Each group runs the continuous track and then the street restarted at every batch (twice the crossings), each
// once with the motion server's clients started first and once with the other's, and prints the ratios with motion ÷
// without; the last lines are the means over the groups.
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import { startServer } from "@/tests/harness/server";
import { PG_BASE, benchAccount, benchApp, benchNodeArgs, cpuMs, evaluationsDrained, fmt, load, loadAverage, postgresMs, scratchDatabase, timedBatchOf, withoutMotionInbox, type BenchAccount, type Post } from "./lib";


/** Waits until the database has no evaluation queued or running; how long that took (ms). */
async function drained(sql: postgres.Sql): Promise<number> {
  const ms = await evaluationsDrained(sql, 120_000);
  if (ms === null) throw new Error("evaluations still pending after 120 s");
  return ms;
}

interface Side {
  name: string;
  port: number;
  pid: number;
  database: string;
  sql: postgres.Sql;
  account: BenchAccount;
}
interface Result {
  rate: number;
  cpu: number;
  postgres: number;
  catchUp: number;
}

/** Each side's statements (pg_stat_statements, since the servers started) with the most execution time, a batch stored. */
async function statementsBySide(sides: readonly Side[]): Promise<void> {
  const stats = postgres(PG_BASE, { max: 1, onnotice: () => {} });
  try {
    for (const s of sides) {
      const [{ batches }] = await s.sql<[{ batches: number }]>`select count(*)::float8 / 100 as batches from locations`;
      const rows = await stats`
        select calls::float8, total_exec_time::float8 as ms, query from pg_stat_statements
        where dbid = (select oid from pg_database where datname = ${s.database}) order by total_exec_time desc limit 12`;
      const total = rows.reduce((sum, r) => sum + (r.ms as number), 0);
      console.log(`${s.name}: ${fmt(batches)} batches stored, the top statements' execution ${fmt((total / batches) * 1000)} µs a batch`);
      for (const r of rows) {
        const q = (r.query as string).replace(/\s+/g, " ").slice(0, 120);
        console.log(`  ${fmt(((r.ms as number) / batches) * 1000).padStart(6)} µs  ${fmt((r.calls as number) / batches, 2).padStart(6)} calls  ${q}`);
      }
    }
  } finally {
    await stats.end();
  }
}

/** The runs and their ratios (see the header), printed as they come. */
export async function motionTogether({ seconds, concurrency, groups }: { seconds: number; concurrency: number; groups: number }): Promise<void> {
  const appDir = benchApp();
  const env = { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" };
  const onDb = await scratchDatabase("fenceline_mc_on");
  const offDb = await scratchDatabase("fenceline_mc_off");
  const on = await startServer({ appDir, databaseUrl: onDb.url, env, nodeArgs: benchNodeArgs() });
  const off = await startServer({ appDir, databaseUrl: offDb.url, env: { ...env, FENCELINE_BENCH_NO_MOTION: "1" }, nodeArgs: benchNodeArgs() });
  await withoutMotionInbox(offDb.url);
  const side = async (name: string, server: typeof on, url: string): Promise<Side> => ({
    name,
    port: Number(new URL(server.baseUrl).port),
    pid: server.process.pid!,
    database: new URL(url).pathname.slice(1),
    sql: postgres(url, { max: 1, onnotice: () => {} }),
    account: await benchAccount(server, "bench-plain", concurrency),
  });
  const sides = [await side("motion on", on, onDb.url), await side("motion off", off, offDb.url)] as const;
  const half = Math.max(1, Math.floor(concurrency / 2));
  const posts = new Map<Side, Map<string, (i: number) => Post>>();
  for (const s of sides) {
    const tracks = new Map<string, (i: number) => Post>();
    for (const track of ["continuous", "restart"] as const) {
      const batchOf = timedBatchOf(s.account.trackables, track);
      tracks.set(track, (i) => ({
        path: `/api/v1/trackables/${s.account.trackables[i % s.account.trackables.length]}/locations`,
        body: JSON.stringify(batchOf(i)),
        headers: s.account.headers,
      }));
    }
    posts.set(s, tracks);
  }

  /** Both servers at once, `half` clients each; the first of `order` gets its clients a moment earlier. */
  const together = async (track: string, order: readonly Side[]): Promise<Map<Side, Result>> => {
    await Promise.all(sides.map((s) => drained(s.sql)));
    await Promise.all(order.map((s) => load(s.port, posts.get(s)!.get(track)!, { concurrency: half, seconds: 2 }))); // warm-up
    await Promise.all(sides.map((s) => drained(s.sql)));
    const before = new Map(sides.map((s) => [s, { cpu: cpuMs(s.pid), pg: postgresMs(s.database) }]));
    const loads = await Promise.all(order.map((s) => load(s.port, posts.get(s)!.get(track)!, { concurrency: half, seconds })));
    const catchUps = await Promise.all(order.map((s) => drained(s.sql)));
    const out = new Map<Side, Result>();
    order.forEach((s, i) => {
      const b = before.get(s)!;
      const n = Math.max(1, loads[i]!.requests + loads[i]!.errors);
      if (loads[i]!.errors > 0) console.log(`  ${s.name}: ${loads[i]!.errors} errors`);
      out.set(s, {
        rate: (loads[i]!.requests * 100) / (loads[i]!.seconds + catchUps[i]! / 1000),
        cpu: (cpuMs(s.pid) - b.cpu) / n,
        postgres: (postgresMs(s.database) - b.pg) / n,
        catchUp: catchUps[i]!,
      });
    });
    return out;
  };

  console.log(
    `motion's cost, both servers loaded at once: ${seconds} s a run, ${half} keep-alive clients each, 100-point batches, Postgres 15, load average ${loadAverage()}`,
  );
  const ratios = new Map<string, { rate: number[]; cpu: number[] }>([
    ["continuous", { rate: [], cpu: [] }],
    ["restart", { rate: [], cpu: [] }],
  ]);
  const [onSide, offSide] = sides;
  for (let g = 0; g < groups; g++) {
    for (const track of ["continuous", "restart"]) {
      for (const order of [[onSide, offSide], [offSide, onSide]] as const) {
        const r = await together(track, order);
        const a = r.get(onSide)!;
        const b = r.get(offSide)!;
        const rate = a.rate / b.rate;
        const cpu = (b.cpu + b.postgres) / (a.cpu + a.postgres);
        ratios.get(track)!.rate.push(rate);
        ratios.get(track)!.cpu.push(cpu);
        const line = (s: Side, x: Result) =>
          `${s.name} ${fmt(x.rate).padStart(6)} points/s, CPU ${fmt(x.cpu, 2)} + Postgres ${fmt(x.postgres, 2)} ms a batch, catch-up ${fmt(x.catchUp)} ms`;
        console.log(
          `group ${g + 1} ${track.padEnd(10)} (${order[0].name} first): ${line(onSide, a)} · ${line(offSide, b)} · on ÷ off ${fmt(rate, 3)}, CPU off ÷ on ${fmt(cpu, 3)}`,
        );
      }
    }
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  console.log("means (within 10 %: ≥ 0.9):");
  for (const [track, r] of ratios) {
    console.log(`  ${track.padEnd(10)} rate on ÷ off ${fmt(mean(r.rate), 3)} (${fmt(Math.min(...r.rate), 3)}–${fmt(Math.max(...r.rate), 3)}) · CPU a batch off ÷ on ${fmt(mean(r.cpu), 3)} (${fmt(Math.min(...r.cpu), 3)}–${fmt(Math.max(...r.cpu), 3)})`);
  }
  if (process.env.BENCH_PG_STATS) await statementsBySide(sides);
  console.log(`load average at the end ${loadAverage()}`);
  for (const s of sides) await s.sql.end();
  await on.stop();
  await off.stop();
  await onDb.drop();
  await offDb.drop();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  motionTogether({ seconds: Number(process.argv[2] ?? 8), concurrency: Number(process.argv[3] ?? 16), groups: Math.max(1, Number(process.argv[4] ?? 3)) }).catch(
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
