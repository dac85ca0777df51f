// Where a device post spends its CPU: Traccar Client's query-form post (/ingest/traccar) against the bare node:http +
// postgres.js insert, side by side in one run, on a scratch Postgres database, with the app server's and the bare
// server's CPU per request. Usage: npx tsx bench/profile-device.ts [seconds=10] [concurrency=16] [fences=0];
// BENCH_CPU_PROF=<dir> writes the app server's CPU profile there (node --cpu-prof); BENCH_APP_DIR=<dir> serves another checkout's build;
// BENCH_REQUEST=api posts one point to /api/v1/trackables/{id}/locations with the API key instead of the device form.
import postgres from "postgres";
import { startServer } from "@/tests/harness/server";
import { benchAccount, benchApp, CLOCK_TICK_MS, cpuMs, createFences, fmt, load, point, postgresMs, scratchDatabase, startBaseline, statFields, traccarPost } from "./lib";

const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 16);
const fenceCount = Number(process.argv[4] ?? 0);

async function main() {
  const appDir = benchApp();
  const db = await scratchDatabase("fenceline_device");
  const app = await startServer({
    appDir,
    databaseUrl: db.url,
    env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" },
    nodeArgs: process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  });
  const base = await startBaseline(db.url);
  try {
    const acc = await benchAccount(app, "bench-device", concurrency);
    if (fenceCount > 0) await createFences(app.baseUrl, acc.headers, fenceCount);
    const appPort = Number(new URL(app.baseUrl).port);
    const runs = {
      bare: { port: base.port, pid: base.process.pid!, make: (i: number) => ({ path: `/api/v1/trackables/${acc.trackables[i % concurrency]}/locations`, body: JSON.stringify(point(i)) }) },
      traccar: { port: appPort, pid: app.process.pid!, make: traccarPost(acc.tokens) },
      api: { port: appPort, pid: app.process.pid!, make: (i: number) => ({ path: `/api/v1/trackables/${acc.trackables[i % concurrency]}/locations`, body: JSON.stringify(point(i)), headers: acc.headers }) },
    };
    const appRun = process.env.BENCH_REQUEST === "api" ? "api" : "traccar";
    // The database's own counters: transactions (each statement outside BEGIN is one) and rows written to the jobs
    // table (the evaluation queue, and its runner's claims), per request. Postgres publishes them within a second.
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const counters = async () => {
      await new Promise((r) => setTimeout(r, 1100));
      const [d] = await sql`select xact_commit + xact_rollback as x from pg_stat_database where datname = current_database()`;
      const [j] = await sql`select n_tup_ins + n_tup_upd + n_tup_del as w from pg_stat_user_tables where relname = 'jobs'`;
      return { xacts: Number(d!.x), jobRows: Number(j?.w ?? 0) };
    };
    // Interleaved, twice each, so a slow spell of the shared machine does not land on one side only.
    for (const name of ["bare", appRun, "bare", appRun] as const) {
      const run = runs[name];
      await load(run.port, run.make, { concurrency, seconds: 2 });
      const before = await counters();
      const cpu0 = cpuMs(run.pid);
      const sys0 = systemMs(run.pid);
      const pg0 = postgresMs();
      const self0 = process.cpuUsage();
      const r = await load(run.port, run.make, { concurrency, seconds });
      const [cpu, sys, pg, client] = [cpuMs(run.pid) - cpu0, systemMs(run.pid) - sys0, postgresMs() - pg0, clientMs(self0)];
      const after = await counters();
      const per = (n: number, digits = 3) => fmt(n / Math.max(1, r.requests), digits);
      console.log(
        `${name.padEnd(8)} ${fmt(r.perSecond).padStart(6)} req/s  p50 ${fmt(r.p50, 1)} ms  p95 ${fmt(r.p95, 1)} ms  ` +
          `CPU ${per(cpu)} ms/req (kernel ${per(sys)})  Postgres ${per(pg)} ms/req  load client ${per(client)} ms/req  ` +
          `${per(after.xacts - before.xacts - 2, 2)} transactions/req  ${per(after.jobRows - before.jobRows, 2)} job rows written/req  ${r.errors} errors`,
      );
    }
    await sql.end();
  } finally {
    base.process.kill();
    await app.stop();
    await db.drop();
  }
}

/** The kernel's share of cpuMs: system time, in ms. */
function systemMs(pid: number): number {
  return Number(statFields(`/proc/${pid}/stat`)?.[12] ?? NaN) * CLOCK_TICK_MS;
}

/** This process's CPU (the load client) since `since`, in ms. */
function clientMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
