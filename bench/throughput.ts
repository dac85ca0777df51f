// Device and API ingest throughput, every figure beside its baseline in ONE run (the goals it prints, and
// ingest with 1,000 fences against ingest without).
// Usage: npx tsx bench/throughput.ts [seconds=8] [concurrency=16] [fences=1000] [all|batches|singles|strict] [repeats=1]
// "strict": the stricter bare baseline (bench/baseline-server.ts, BASELINE=strict: a minimal table of its own) against
// single /ingest/traccar and /api/v1 posts and 100-point batches, on Postgres (see strictRuns below); there the
// sixth argument is all, singles or batches instead of [repeats]: `throughput.ts 8 16 0 strict all`.
// "strict-embedded": the same runs with the app on the embedded database (no DATABASE_URL: PGlite in a process of its
// own) and the strict bare server on an embedded database of its own, started the same way (the app's PGlite settings,
// its own fresh data directory): `throughput.ts 8 16 0 strict-embedded all`.
// BENCH_NODE_ARGS="--flag …" adds node flags to the app server's own, BENCH_CPU_PROF=<dir> writes its CPU profile.
// BENCH_APP_DIR=<dir> serves another checkout's built app (a before/after; see bench/README.md).
// BENCH_MOTION=compare adds two app servers, each on a fresh scratch database of its own: one with motion and one
// without (FENCELINE_BENCH_NO_MOTION=1, and no motion trigger), and runs each request of a plain account on both, next
// to each other: motion on ÷ motion off, from the same start (not the main server, whose tables the other runs fill).
// BENCH_MOTION=together with "motion": the same two servers loaded at once instead, half the clients each, so the
// shared machine's drift falls on both alike (bench/motion-cost.ts; [repeats] is its number of groups).
//
// One app server (the built app behind lib/server/app-server.ts, on a scratch Postgres database) and one bare
// node:http + postgres.js server (bench/baseline-server.ts) on the same database, driven by N keep-alive clients
// (node:http, one socket each, so the load generator costs little CPU). Each run is timed for `seconds` after a 2 s
// warm-up; the server's CPU time per request is read from /proc (steadier than req/s on a shared machine), and an app
// server's garbage collection time per request from its /metrics (GC). Rates are sustained rates: evaluation still
// under way when the posts stop is waited for, and its time and CPU count.
//   (a) framework ceiling: POST to an unknown /api/v1 path — the catch-all route's JSON 404 (notFoundRoute: no auth,
//       no database);
//   (b) bare single insert: node:http + postgres.js, one row;
//   (c) POST /api/v1/trackables/{id}/locations, one point;
//   (d) POST /ingest/traccar?id=…&lat=…, the query form Traccar Client sends;
//   (e) 100-point batches to (c) against the bare multi-row insert: each trackable drives the bench's street back and
//       forth (trackBatch "continuous"), its fixes stamped 2 s apart as a phone's buffered upload sends them
//       (timedBatchOf); (e') the same with every batch starting the street again (the device jumps back 1.4 km between
//       batches: twice the boundary crossings, the dense case);
//   (f) (c), (d) and (e) again for an account with [fences] geofences (half 20-vertex polygons) around its points,
//       each run next to its plain twin: without, with, with, without.
// Every ratio compares runs made next to each other: a baseline runs right before and right after the group it is
// compared with ((a) around (c), (b) around (d), the bare batch around (e)), and each figure is the mean of its two
// runs, so a drift of the shared machine's speed during the script falls on both sides of a ratio alike.
// Each kind of run writes to trackables of its own, so no run leaves points that a later run's evaluation must catch
// up on (the bare server inserts into trackables nobody evaluates).
import postgres from "postgres";
import { startServer } from "@/tests/harness/server";
import { motionTogether } from "./motion-cost";
import { buildIfStale } from "@/scripts/build";
import {
  benchAccount,
  benchApp,
  benchNodeArgs,
  cpuMs,
  createFences,
  evaluationsDrained,
  fmt,
  gcMs,
  load,
  loadAverage,
  mainThreadMs,
  point,
  postgresMs,
  quiet,
  scratchDatabase,
  serverCpuMs,
  startBaseline,
  timedBatchOf,
  traccarPost,
  type BenchAccount,
  type LoadResult,
  type Post,
  withoutMotionInbox,
} from "./lib";

const seconds = Number(process.argv[2] ?? 8);
const concurrency = Number(process.argv[3] ?? 16);
const fenceCount = Number(process.argv[4] ?? 1000);
/**
 * "batches": only the batch runs, (e) and (e') with their baselines (the batch ratios with fences, in 3 minutes);
 * "singles": only the single-point runs, (a) to (d) (goals 1 and 2, in 4 minutes);
 * "motion" (with BENCH_MOTION=compare): only the batches' motion groups, on and off, continuous and restarting (the
 * motion ratios, in a minute and a half a group: more [repeats] in the time of one "batches" run).
 */
const only = process.argv[5];
/** How many times the fences ratio's group of four runs (without, with, with, without) is made for each request. */
const repeats = Math.max(1, Number(process.argv[6] ?? 1));

/**
 * A run's load result, the server's CPU time per request over it (its catch-up included), and how busy the server's
 * event loop thread was over the posts (the share of their wall time it was on a CPU).
 */
type Run = LoadResult & { cpuPerRequest: number; postgresPerRequest: number; mainBusy: number; gcPerRequest: number | null };

/** A server a run posts to: its port and process, the database its evaluations are waited for on, and trackables it never evaluates. */
type Target = { port: number; pid: number; sql: postgres.Sql; unevaluated: readonly string[] };

const compareMotion = process.env.BENCH_MOTION === "compare";
const motionOnly = only === "motion";

async function main() {
  if (only === "strict" || only === "strict-embedded") return strictRuns(only === "strict-embedded");
  if (motionOnly && process.env.BENCH_MOTION === "together") return motionTogether({ seconds, concurrency, groups: repeats });
  if (motionOnly && !compareMotion) throw new Error('"motion" compares two servers: run it with BENCH_MOTION=compare or BENCH_MOTION=together');
  const appDir = benchApp();
  const db = await scratchDatabase("fenceline_tput");
  const app = await startServer({
    appDir,
    databaseUrl: db.url,
    env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" },
    nodeArgs: benchNodeArgs(),
  });
  const appPort = Number(new URL(app.baseUrl).port);
  const base = await startBaseline(db.url);
  const basePort = base.port;
  // The same app with motion and without, each on a database of its own (two servers on one database would run each
  // other's jobs).
  const onDb = compareMotion ? await scratchDatabase("fenceline_tput_motion") : null;
  const on = onDb
    ? await startServer({
        appDir,
        databaseUrl: onDb.url,
        env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" },
        nodeArgs: benchNodeArgs(),
      })
    : null;
  const offDb = compareMotion ? await scratchDatabase("fenceline_tput_nomotion") : null;
  const off = offDb
    ? await startServer({
        appDir,
        databaseUrl: offDb.url,
        env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "", FENCELINE_BENCH_NO_MOTION: "1" },
        nodeArgs: benchNodeArgs(),
      })
    : null;
  // Without motion, nothing announces fixes to it either: that part of its trigger on locations is motion's cost.
  if (offDb) await withoutMotionInbox(offDb.url);
  try {
    const plain = await benchAccount(app, "bench-plain", concurrency);
    const fenced = await benchAccount(app, "bench-fenced", concurrency);
    const bare = await benchAccount(app, "bench-bare", concurrency);
    console.log(`creating ${fmt(fenceCount)} geofences…`);
    await createFences(app.baseUrl, fenced.headers, fenceCount);

    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const offSql = offDb ? postgres(offDb.url, { max: 1, onnotice: () => {} }) : null;
    const onSql = onDb ? postgres(onDb.url, { max: 1, onnotice: () => {} }) : null;
    const noMotion = off ? await benchAccount(off, "bench-plain", concurrency) : null;
    const withMotion = on ? await benchAccount(on, "bench-plain", concurrency) : null;
    /** The same request of the plain account on the servers with motion and without (BENCH_MOTION=compare). */
    const both = (post: (a: BenchAccount) => (i: number) => Post) => (withMotion && noMotion ? { on: post(withMotion), off: post(noMotion) } : undefined);
    const show = (label: string, r: Run, backlog: string, unit = "req/s", mult = 1) =>
      console.log(
        `${label.padEnd(52)} ${fmt(r.perSecond * mult).padStart(7)} ${unit.padEnd(8)} p50 ${fmt(r.p50, 1).padStart(6)} ms  p95 ${fmt(r.p95, 1).padStart(6)} ms  ` +
          `CPU ${fmt(r.cpuPerRequest, 2)} ms/req (Postgres ${fmt(r.postgresPerRequest, 2)}${r.gcPerRequest === null ? "" : `, GC ${fmt(r.gcPerRequest, 2)}`})  ` +
          `event loop ${fmt(r.mainBusy * 100)} % busy  ${r.errors} errors  ${backlog}`,
      );
    const measure = async (label: string, { port, pid, sql, unevaluated }: Target, make: (i: number) => Post, ok?: (s: number) => boolean, unit?: string, mult?: number) => {
      await drained(sql);
      await load(port, make, { concurrency, seconds: 2, ok }); // warm-up
      await drained(sql);
      const [{ events: events0 }] = await sql<[{ events: number }]>`select count(*)::int as events from events`;
      const cpu0 = cpuMs(pid);
      const pg0 = postgresMs();
      const main0 = mainThreadMs(pid);
      const gc0 = await gcMs(port);
      const loaded = await load(port, make, { concurrency, seconds, ok });
      const mainBusy = (mainThreadMs(pid) - main0) / (loaded.seconds * 1000);
      // Sustained throughput: the posts may outrun their evaluation, which the server then finishes after the last
      // post. The time and CPU of that catch-up count as part of the run (the next run starts after it).
      const t0 = performance.now();
      const left = await pointsBehind(sql, unevaluated);
      await drained(sql);
      const catchUp = performance.now() - t0;
      // With no evaluation queued or running, nothing may be left after a cursor: such points would never be evaluated.
      const stranded = await pointsBehind(sql, unevaluated);
      const gc1 = await gcMs(port);
      if (stranded > 0) console.log(`  ${fmt(stranded)} points were left with no evaluation to come: a lost run`);
      const r: Run = {
        ...loaded,
        perSecond: loaded.requests / (loaded.seconds + catchUp / 1000),
        cpuPerRequest: (cpuMs(pid) - cpu0) / Math.max(1, loaded.requests + loaded.errors),
        postgresPerRequest: (postgresMs() - pg0) / Math.max(1, loaded.requests + loaded.errors),
        mainBusy,
        gcPerRequest: gc0 === null || gc1 === null ? null : (gc1 - gc0) / Math.max(1, loaded.requests + loaded.errors),
      };
      const [{ events: events1 }] = await sql<[{ events: number }]>`select count(*)::int as events from events`;
      // Geofence events (entries, exits) the run's points made, warm-up excluded: the work fences add per request.
      const made = events1 - events0;
      const backlog = [
        made > 0 ? `${fmt(made / Math.max(1, loaded.requests), 2)} geofence events a request` : "",
        left === 0 ? "" : `(${fmt(left)} points evaluated after the last post, in ${fmt(catchUp)} ms)`,
      ].filter(Boolean).join("  ");
      show(label, r, backlog, unit, mult);
      return r;
    };
    const apiPost = (acc: BenchAccount, body: (i: number) => unknown) => (i: number): Post => ({
      path: `/api/v1/trackables/${acc.trackables[i % acc.trackables.length]}/locations`,
      body: JSON.stringify(body(i)),
      headers: acc.headers,
    });
    const traccar = (acc: BenchAccount) => traccarPost(acc.tokens);
    // The i-th request's batch: its trackable's next visit of the bench's street (trackBatch), fixes 2 s apart.
    const batchOf = (acc: BenchAccount, track: "continuous" | "restart") => timedBatchOf(acc.trackables, track);
    const appT: Target = { port: appPort, pid: app.process.pid!, sql, unevaluated: bare.trackables };
    const baseT: Target = { port: basePort, pid: base.process.pid!, sql, unevaluated: bare.trackables };
    const offT: Target | null = off ? { port: Number(new URL(off.baseUrl).port), pid: off.process.pid!, sql: offSql!, unevaluated: [] } : null;
    const onT: Target | null = on ? { port: Number(new URL(on.baseUrl).port), pid: on.process.pid!, sql: onSql!, unevaluated: [] } : null;

    console.log(`throughput bench: ${seconds} s per run, ${concurrency} keep-alive clients, Postgres 15, load average ${loadAverage()}`);
    // The fences' with ÷ without is a ratio of two runs of the same request: they run next to each other, twice, in
    // the order without, with, with, without (a drift of the shared machine's speed falls on both sides alike), and
    // each side is the mean of its two runs.
    // With [repeats] > 1 the group of four runs is repeated (each group's ratio is printed too, to show the spread).
    // With BENCH_MOTION=compare each group is followed by the same four-run group of a plain account's request on the
    // fresh servers with motion and without: with, without, without, with.
    const paired = async (
      label: string,
      plainPost: (i: number) => Post,
      fencedPost: (i: number) => Post,
      unit?: string,
      mult?: number,
      motionPosts?: { on: (i: number) => Post; off: (i: number) => Post },
    ) => {
      const plainRuns: Run[] = [];
      const fencedRuns: Run[] = [];
      const groups: number[] = [];
      const motionOn: Run[] = [];
      const motionOff: Run[] = [];
      const motionGroups: number[] = [];
      const motionCpuGroups: number[] = [];
      for (let g = 0; g < repeats; g++) {
        if (!motionOnly) {
          const p1 = await measure(g === 0 ? label : `${label.slice(0, 3)} again`, appT, plainPost, undefined, unit, mult);
          const f1 = await measure(`(f) ${label.slice(0, 3)} with ${fmt(fenceCount)} geofences in the account`, appT, fencedPost, undefined, unit, mult);
          const f2 = await measure(`(f) ${label.slice(0, 3)} again`, appT, fencedPost, undefined, unit, mult);
          const p2 = await measure(`${label.slice(0, 3)} again`, appT, plainPost, undefined, unit, mult);
          plainRuns.push(p1, p2);
          fencedRuns.push(f1, f2);
          groups.push(mean([f1, f2]).perSecond / mean([p1, p2]).perSecond);
        }
        if (onT && offT && motionPosts) {
          const m1 = await measure(`(m) ${label.slice(0, 3)} motion on`, onT, motionPosts.on, undefined, unit, mult);
          const o1 = await measure(`(m) ${label.slice(0, 3)} motion off`, offT, motionPosts.off, undefined, unit, mult);
          const o2 = await measure(`(m) ${label.slice(0, 3)} motion off again`, offT, motionPosts.off, undefined, unit, mult);
          const m2 = await measure(`(m) ${label.slice(0, 3)} motion on again`, onT, motionPosts.on, undefined, unit, mult);
          motionOn.push(m1, m2);
          motionOff.push(o1, o2);
          motionGroups.push(mean([m1, m2]).perSecond / mean([o1, o2]).perSecond);
          motionCpuGroups.push(requestCpu(mean([o1, o2])) / requestCpu(mean([m1, m2])));
        }
      }
      const motion = motionOn.length > 0 ? { on: mean(motionOn), off: mean(motionOff), groups: motionGroups, cpuGroups: motionCpuGroups } : null;
      return { plain: motionOnly ? null : mean(plainRuns), fenced: motionOnly ? null : mean(fencedRuns), groups, motion };
    };
    // Each goal's baseline runs right before and right after the runs it is compared with (the mean of the two).
    const bracketed = async <T>(label: string, target: Target, make: (i: number) => Post, inner: () => Promise<T>, ok?: (s: number) => boolean, unit?: string, mult?: number) => {
      const before = await measure(label, target, make, ok, unit, mult);
      const result = await inner();
      const after = await measure(`${label.split(",")[0]} again`, target, make, ok, unit, mult);
      return [mean([before, after]), result] as const;
    };
    const notFound = () => ({ path: "/api/v1/no-such-endpoint", body: "{}" });
    const singles = async () => {
      const [ceiling, api] = await bracketed("(a) framework ceiling: JSON 404 of /api/v1/*", appT, notFound, () =>
        paired("(c) POST /api/v1/…/locations, 1 point", apiPost(plain, point), apiPost(fenced, point), undefined, undefined, both((a) => apiPost(a, point))), (s) => s === 404);
      const [bareSingle, dev] = await bracketed("(b) bare node:http + postgres.js, 1 row", baseT, apiPost(bare, point), () =>
        paired("(d) POST /ingest/traccar (query form)", traccar(plain), traccar(fenced), undefined, undefined, both(traccar)));
      return { ceiling, api, bareSingle, dev };
    };
    const single = only === "batches" || motionOnly ? null : await singles();
    const batchRuns = async () => ({
        apiBatch: await paired(
          "(e) POST /api/v1/…/locations, 100 points",
          apiPost(plain, batchOf(plain, "continuous")),
          apiPost(fenced, batchOf(fenced, "continuous")),
          "points/s",
          100,
          both((a) => apiPost(a, batchOf(a, "continuous"))),
        ),
        denseBatch: await paired(
          "(e') the same, each batch restarting the street",
          apiPost(plain, batchOf(plain, "restart")),
          apiPost(fenced, batchOf(fenced, "restart")),
          "points/s",
          100,
          both((a) => apiPost(a, batchOf(a, "restart"))),
        ),
      });
    const batches = only === "singles" || motionOnly
      ? null
      : await bracketed("(e) bare multi-row insert, 100 points", baseT, apiPost(bare, batchOf(bare, "continuous")), batchRuns, undefined, "points/s", 100);
    const motionBatches = motionOnly ? await batchRuns() : batches?.[1];

    // A run not made (the plain and fenced runs of a "motion" run) shows as a dash.
    const r = (a: Run | null, b: Run | null) => (a && b ? fmt(a.perSecond / b.perSecond, 3) : "—");
    console.log("ratios (req/s, or points/s for batches; each figure the mean of its runs: two, or two per group with [repeats]):");
    const spread = (groups: number[]) => (groups.length > 1 ? ` (groups ${groups.map((g) => fmt(g, 3)).join(", ")})` : "");
    if (single) {
      const { ceiling, api, bareSingle, dev } = single;
      console.log(`  goal 1  /api/v1 single ÷ framework ceiling (≥ 0.5):           ${r(api.plain, ceiling)}`);
      console.log(`  goal 2  /ingest/traccar ÷ bare single insert (≥ 0.5):          ${r(dev.plain, bareSingle)}`);
      console.log(
        `  fences   with ${fmt(fenceCount)} fences ÷ without (≥ 0.9): /api/v1 ${r(api.fenced, api.plain)}${spread(api.groups)} · /ingest/traccar ${r(dev.fenced, dev.plain)}${spread(dev.groups)}`,
      );
      console.log(`  also  /api/v1 single ÷ bare single insert: ${r(api.plain, bareSingle)} · framework ceiling ÷ bare: ${r(ceiling, bareSingle)}`);
    }
    if (batches) {
      const [bareBatch, { apiBatch, denseBatch }] = batches;
      console.log(`  goal 3  /api/v1 batches of 100 ÷ bare multi-row insert (≥ 0.5): ${r(apiBatch.plain, bareBatch)}`);
      console.log(
        `  fences   with ${fmt(fenceCount)} fences ÷ without (≥ 0.9): batches ${r(apiBatch.fenced, apiBatch.plain)}${spread(apiBatch.groups)}` +
          ` · batches restarting the street (twice the crossings) ${r(denseBatch.fenced, denseBatch.plain)}${spread(denseBatch.groups)}`,
      );
    }
    if (compareMotion) {
      console.log("  motion  on ÷ off (within 10 %: ≥ 0.9), a plain account's requests on two fresh servers, one with motion and one without:");
      // Beside the rates, the same groups' CPU a batch (the server's and Postgres's), off ÷ on: steadier on a shared
      // machine, where a run's rate moves with what else runs but its CPU a request much less.
      const motionRatio = (name: string, p: { motion: { on: Run; off: Run; groups: number[]; cpuGroups: number[] } | null }) =>
        p.motion &&
        console.log(
          `    ${name.padEnd(48)} ${r(p.motion.on, p.motion.off)}${spread(p.motion.groups)}` +
            ` · CPU a request, off ÷ on: ${fmt(requestCpu(p.motion.off) / requestCpu(p.motion.on), 3)}${spread(p.motion.cpuGroups)}`,
        );
      if (single) {
        motionRatio("/api/v1 single", single.api);
        motionRatio("/ingest/traccar", single.dev);
      }
      if (motionBatches) {
        motionRatio("batches of 100, continuous track", motionBatches.apiBatch);
        motionRatio("batches restarting the street", motionBatches.denseBatch);
      }
    }
    console.log(`load average at the end ${loadAverage()}`);
    await sql.end();
    await offSql?.end();
    await onSql?.end();
  } finally {
    base.process.kill();
    await app.stop();
    await off?.stop();
    await on?.stop();
    await db.drop();
    await offDb?.drop();
    await onDb?.drop();
  }
}

/**
 * The goals against the stricter bare baseline, in one run: each app run bracketed by the strict bare server's runs
 * of the same shape (before and after, the mean of the two) — single posts: bare single-row insert, /ingest/traccar,
 * /api/v1 single point, bare again; batches: bare multi-row insert of 100, /api/v1 batch of 100, bare again. No
 * geofences. On Postgres (the app and the bare server on one scratch database), or `embedded`: the app on its embedded
 * database and the bare server on one of its own (each a fresh data directory, each database in its own process,
 * counted in its server's CPU).
 */
async function strictRuns(embedded: boolean) {
  buildIfStale();
  const db = embedded ? null : await scratchDatabase("fenceline_tput");
  const app = await startServer({
    databaseUrl: db?.url,
    // DATABASE_URL empty: the embedded database even when the bench's environment names a Postgres.
    env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "", ...(db ? {} : { DATABASE_URL: "" }) },
    nodeArgs: benchNodeArgs(),
  });
  const base = await startBaseline(db?.url ?? null, { strict: true });
  const sql = db ? postgres(db.url, { max: 1, onnotice: () => {} }) : null;
  try {
    const plain = await benchAccount(app, "bench-plain", concurrency);
    // The batches' trackables are not the single posts': a batch's fixes start thirty days back (timedBatchOf), so
    // after the singles' fixes of now every batch would be a late one, which motion recomputes a window for.
    const batched = await benchAccount(app, "bench-batched", concurrency);
    const bare = await benchAccount(app, "bench-bare", concurrency);
    const appPort = Number(new URL(app.baseUrl).port);
    const appPid = app.process.pid!;
    const basePid = base.process.pid!;
    // Waits until the app's work from the runs so far (the evaluations its posts queued) is done, and answers how long
    // the server `pid` went on working (ms): a run's catch-up. On Postgres the jobs table says (the bare server leaves
    // no work behind). The embedded database serves one connection, the app's, so there the processes going quiet say:
    // those of `pid` (the server and its database's) for its catch-up, then the app's too before the next run.
    const drain = sql
      ? async () => {
          const t0 = performance.now();
          await drained(sql);
          return performance.now() - t0;
        }
      : async (pid: number) => {
          const catchUp = await quiet([pid]);
          await quiet([appPid, pid]);
          return catchUp;
        };
    const measure = async (label: string, port: number, pid: number, make: (i: number) => Post, mult = 1, unit = "req/s") => {
      await drain(pid);
      await load(port, make, { concurrency, seconds: 2 }); // warm-up
      await drain(pid);
      const cpu0 = serverCpuMs(pid);
      const loaded = await load(port, make, { concurrency, seconds });
      const catchUp = await drain(pid);
      const perSecond = loaded.requests / (loaded.seconds + catchUp / 1000);
      const cpu = (serverCpuMs(pid) - cpu0) / Math.max(1, loaded.requests + loaded.errors);
      console.log(
        `${label.padEnd(48)} ${fmt(perSecond * mult).padStart(7)} ${unit.padEnd(8)} p50 ${fmt(loaded.p50, 1).padStart(6)} ms  p95 ${fmt(loaded.p95, 1).padStart(6)} ms  ` +
          `CPU ${fmt(cpu, 2)} ms/req  ${loaded.errors} errors${embedded ? `  catch-up ${fmt(catchUp)} ms` : ""}`,
      );
      return perSecond;
    };
    const apiPost = (acc: BenchAccount, body: (i: number) => unknown) => (i: number): Post => ({
      path: `/api/v1/trackables/${acc.trackables[i % acc.trackables.length]}/locations`,
      body: JSON.stringify(body(i)),
      headers: acc.headers,
    });
    const batchOf = (acc: BenchAccount) => timedBatchOf(acc.trackables, "continuous");
    const where = embedded ? "the app and the bare server each on an embedded database (PGlite) of its own" : "Postgres 15";
    console.log(`throughput bench, strict baseline: ${seconds} s per run, ${concurrency} keep-alive clients, ${where}, load average ${loadAverage()}`);
    const ratios: string[] = [];
    if (process.argv[6] !== "batches") {
      const b1 = await measure("strict bare single-row insert", base.port, basePid, apiPost(bare, point));
      const dev = await measure("POST /ingest/traccar (query form)", appPort, appPid, traccarPost(plain.tokens));
      const api = await measure("POST /api/v1/…/locations, 1 point", appPort, appPid, apiPost(plain, point));
      const b2 = await measure("strict bare single-row insert again", base.port, basePid, apiPost(bare, point));
      const b = (b1 + b2) / 2;
      ratios.push(`  /ingest/traccar ÷ strict bare single (≥ 1.0): ${fmt(dev / b, 3)}`, `  /api/v1 single ÷ strict bare single (≥ 1.0): ${fmt(api / b, 3)}`);
    }
    if (process.argv[6] !== "singles") {
      const b1 = await measure("strict bare multi-row insert, 100 points", base.port, basePid, apiPost(bare, batchOf(bare)), 100, "points/s");
      const batch = await measure("POST /api/v1/…/locations, 100 points", appPort, appPid, apiPost(batched, batchOf(batched)), 100, "points/s");
      const b2 = await measure("strict bare multi-row insert again", base.port, basePid, apiPost(bare, batchOf(bare)), 100, "points/s");
      ratios.push(`  /api/v1 batches of 100 ÷ strict bare multi-row insert (≥ 0.95): ${fmt(batch / ((b1 + b2) / 2), 3)}`);
    }
    console.log(["ratios (each bare figure the mean of the runs before and after):", ...ratios].join("\n"));
    console.log(`load average at the end ${loadAverage()}`);
  } finally {
    await sql?.end();
    await base.stop();
    await app.stop();
    await db?.drop();
  }
}

/** A run's CPU a request, the server's and Postgres's. */
const requestCpu = (run: Run) => run.cpuPerRequest + run.postgresPerRequest;

/** Runs of one request as one: the mean of their rates, of their CPU per request and of their event loop's load. */
function mean(runs: readonly Run[]): Run {
  const avg = (pick: (r: Run) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return {
    ...runs[0]!,
    perSecond: avg((r) => r.perSecond),
    cpuPerRequest: avg((r) => r.cpuPerRequest),
    postgresPerRequest: avg((r) => r.postgresPerRequest),
    mainBusy: avg((r) => r.mainBusy),
    gcPerRequest: runs.some((r) => r.gcPerRequest === null) ? null : avg((r) => r.gcPerRequest!),
  };
}

/** Points after their trackable's evaluation cursor (the app's trackables, not the bare baseline's). */
async function pointsBehind(sql: postgres.Sql, bare: readonly string[]): Promise<number> {
  // The bare baseline's trackables are left out: its inserts bypass the app, so their points are never evaluated (and
  // their state rows exist, made with the trackables).
  const [row] = await sql`
    select count(*)::int as n from trackable_states s
    join locations l on l.trackable_id = s.trackable_id
      and (l.timestamp, l.id) > (coalesce(s.evaluated_timestamp, '-infinity'), coalesce(s.evaluated_location_id, '00000000-0000-0000-0000-000000000000'))
    where s.trackable_id <> all(${[...bare]}::uuid[])`;
  return row!.n as number;
}

/** Waits (up to 60 s) until the embedded runner has no evaluation left from the previous run, so runs do not overlap. */
async function drained(sql: postgres.Sql) {
  if ((await evaluationsDrained(sql)) === null) console.log("  (evaluations still pending after 60 s)");
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
