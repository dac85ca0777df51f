// A sustained soak: minutes of a mixed load at a share of the server's measured capacity, with webhook receivers and
// open event streams, printing per minute what an operator watches (POST latency, POST → webhook, memory, queue age,
// the streams' fan-out).
// Usage: npx tsx bench/soak.ts [minutes=10] [share=0.7] [streamClients=1000]; with DATABASE_URL, on that Postgres
// (a scratch database of its own), else the embedded database. BENCH_APP_DIR=<dir> serves another checkout's build.
//
// The mix, by request: 60 % Traccar Client's query form (/ingest/traccar, one fix, far from any fence; from a fleet
// of DEVICES phones in turn, each fix stamped in whole seconds and at least a second after its phone's last, as the
// app sends one fix per interval), 25 % single
// /api/v1 points that cross a 100 m circle geofence each time (in, out, in… : one geofence event a post, delivered to
// a webhook receiver), 15 % /api/v1 batches of 20 fixes since the trackable's last (no crossing). First the same mix runs closed-loop
// (16 keep-alive clients, 10 s) to measure the capacity in requests per second, sustained (the time the server takes
// after it to finish the evaluation and deliveries it started counts); the soak then sends `share` of it
// open-loop (each request at its due time, whether or not the ones before were answered), so a slower server shows
// as latency and queueing, not as a lower rate.
// The streams: `streamClients` SSE connections to /api/v1/stream, each filtered to one probe trackable; every 5 s a
// crossing post for it, and each client's frame for that event is timed from the post's answer. The stream clients run
// in a process of their own (bench/soak-streams.ts): parsing a thousand frames at once in this one held up its event
// loop, and the posts answered meanwhile were timed late. Each minute prints the event-loop delay (p99) of the server
// and of this process, so a tail that is the load generator's own shows as such.
// BENCH_SOAK_RATE=<requests/s> sets the soak's rate instead of `share` (to compare two builds at the same rate).
// BENCH_PG_STATS=1 (on a Postgres with pg_stat_statements preloaded and created in DATABASE_URL's database, as
// bench/pg-statements.ts sets one up): per minute also the statements that took the most of Postgres's time in it, with
// their mean time a call, and the live and dead rows of the tables that grow, to find what slows down minute by minute.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import postgres from "postgres";
import { startServer } from "@/tests/harness/server";
import { startReceiver } from "@/tests/support/receiver";
import type { StreamsMessage } from "./soak-streams";
import { PG_BASE, benchAccount, benchApp, fmt, load, loadAverage, provisionKey, scratchDatabase, serverRssMb, type Post } from "./lib";

const minutes = Number(process.argv[2] ?? 10);
const share = Number(process.argv[3] ?? 0.7);
/**
 * BENCH_SOAK_RATE=<requests/s>: the soak's rate, instead of `share` of the capacity (still measured, and printed): two
 * builds compared at the same rate, since the closed-loop capacity of one build moves by a third from run to run.
 */
const fixedRate = process.env.BENCH_SOAK_RATE ? Number(process.env.BENCH_SOAK_RATE) : null;
const streamClients = Number(process.argv[4] ?? 1000);

const FENCE = { latitude: 10, longitude: 10 };
const inside = (i: number) => ({ latitude: FENCE.latitude + (i % 7) * 0.00005, longitude: FENCE.longitude });
const outside = (i: number) => ({ latitude: FENCE.latitude + 0.01 + (i % 7) * 0.00005, longitude: FENCE.longitude });
/**
 * The phones posting /ingest/traccar: enough that each posts about once in two seconds at the soak's rate (a fleet,
 * not a few phones posting many times a second: Traccar Client sends a fix per interval, in whole seconds).
 */
const DEVICES = 400;
/** The event-loop delay histograms' timer, in ms (see the minute's report). */
const LOOP_TIMER_MS = 10;
/** Wall-clock ms with performance.now()'s resolution: this process and the stream clients' time on one clock. */
const wallNow = () => performance.timeOrigin + performance.now();
const quantile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

async function main() {
  const db = process.env.DATABASE_URL ? await scratchDatabase("fenceline_soak") : null;
  const receiver = await startReceiver({ secret: "soak-secret" });
  const app = await startServer({
    appDir: benchApp(),
    ...(db ? { databaseUrl: db.url } : {}),
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      RATE_LIMIT_PER_MINUTE: "1000000000",
      DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000",
      STREAM_MAX_PER_KEY: String(streamClients + 10),
      REDIS_URL: "",
    },
  });
  const pid = app.process.pid!;
  let streamsChild: ChildProcess | null = null;
  const pgStats = db && process.env.BENCH_PG_STATS === "1" ? await statementWatch(db.url) : null;
  try {
    // Trackables: DEVICES phones (Traccar), 16 crossing on the API, 16 batch senders, one probe for the streams.
    const devices = await benchAccount(app, "soak-devices", DEVICES);
    const key = await provisionKey(app, "soak", "enterprise");
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const api = async (path: string, body: unknown) => {
      const res = await fetch(`${app.baseUrl}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const make = async (n: number, name: string) => Promise.all(Array.from({ length: n }, async (_, i) => (await api("/trackables", { name: `${name} ${i}` })).id));
    const crossers = await make(16, "crosser");
    const batchers = await make(16, "batcher");
    const [probe] = await make(1, "probe");
    await api("/geofences", { name: "Soak", ...FENCE, radius: 100, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: "soak-secret" });

    // Each crossing post is known by its trackable and fix time. Its answer and its webhook are timed apart (a webhook
    // can come before the answer reaches this client) and paired at each minute's report.
    const answeredAt = new Map<string, number>();
    const deliveredAt = new Map<string, number>();
    receiver.setResponder((r) => {
      deliveredAt.set(`${r.json.beacon?.id}|${r.json.location?.timestamp}`, performance.now());
      return { status: 200 };
    });
    /** Paired answer → arrival times (ms; 0 when the arrival came first), each pair taken out of both maps. */
    const pair = (answered: Map<string, number>, arrived: Map<string, number>): number[] => {
      const out: number[] = [];
      for (const [k, t] of answered) {
        const a = arrived.get(k);
        if (a === undefined) continue;
        out.push(Math.max(0, a - t));
        answered.delete(k);
        arrived.delete(k);
      }
      return out;
    };
    const clocks = new Map<string, number>();
    const nextTime = (id: string) => {
      // Strictly increasing per trackable, never ahead of now: each fix is new, none late.
      const t = Math.max(Date.now(), (clocks.get(id) ?? 0) + 1);
      clocks.set(id, t);
      return new Date(t).toISOString();
    };
    const crossings = new Map<string, number>();
    const crossing = (id: string): { body: unknown; key: string } => {
      const n = (crossings.get(id) ?? 0) + 1;
      crossings.set(id, n);
      const timestamp = nextTime(id);
      return { body: { ...(n % 2 === 1 ? inside(n) : outside(n)), accuracy: 5, timestamp }, key: `${id}|${timestamp}` };
    };
    // A buffered upload: 20 fixes spread evenly from just after the trackable's previous one to now (2 s apart when
    // the batches come 40 s apart, closer when faster), so none is in the future and none is late.
    const batch = (id: string) => {
      const last = clocks.get(id) ?? Date.now() - 40_000;
      const step = Math.max(1, (Date.now() - last) / 20);
      clocks.set(id, last + 20 * step);
      return { locations: Array.from({ length: 20 }, (_, k) => ({ ...outside(k), accuracy: 5, timestamp: new Date(last + (k + 1) * step).toISOString() })) };
    };

    // The i-th request of the mix (for the closed-loop capacity run and the soak alike).
    let traccarSent = 0;
    const phoneSeconds: number[] = [];
    const traccarPath = (i: number) => {
      const p = outside(i);
      const phone = traccarSent++ % DEVICES;
      const second = Math.max(Math.floor(Date.now() / 1000), (phoneSeconds[phone] ?? 0) + 1);
      phoneSeconds[phone] = second;
      return `/ingest/traccar?id=${devices.tokens[phone]}&lat=${p.latitude}&lon=${p.longitude}&timestamp=${second}&accuracy=5`;
    };
    const mix = (i: number): Post & { key?: string } => {
      const slot = i % 20;
      if (slot < 12) return { path: traccarPath(i) };
      if (slot < 17) {
        const id = crossers[i % 16]!;
        const c = crossing(id);
        return { path: `/api/v1/trackables/${id}/locations`, body: JSON.stringify(c.body), headers, key: c.key };
      }
      const id = batchers[i % 16]!;
      return { path: `/api/v1/trackables/${id}/locations`, body: JSON.stringify(batch(id)), headers };
    };

    // The capacity is a sustained rate: the closed-loop run's requests over its time and the time the server then takes
    // to finish what they started (evaluation rounds and webhook deliveries), as bench/throughput.ts counts it. The
    // closed-loop rate alone outruns the evaluation and deliveries, and a soak at a share of it only falls behind.
    const capacityRun = await load(Number(new URL(app.baseUrl).port), mix, { concurrency: 16, seconds: 10 });
    const catchUp = await caughtUp(app.baseUrl, deliveredAt);
    const capacity = capacityRun.requests / (capacityRun.seconds + catchUp / 1000);
    const rate = fixedRate ?? capacity * share;
    console.log(
      `soak: ${minutes} min at ${fixedRate === null ? `${fmt(share * 100)} % of` : "a fixed rate, against"} a sustained ${fmt(capacity)} requests/s (the mix, 16 clients, 10 s: ${fmt(capacityRun.perSecond)}/s, p50 ${fmt(capacityRun.p50, 1)} ms, ` +
        `then ${fmt(catchUp)} ms to finish its evaluation and deliveries) = ${fmt(rate)}/s, ${streamClients} stream clients, ${db ? "Postgres" : "embedded database"}, load average ${loadAverage()}`,
    );
    answeredAt.clear();
    deliveredAt.clear();
    await pgStats?.minute();

    // The streams, each filtered to the probe trackable, in a process of their own (bench/soak-streams.ts): each
    // client's frame is matched to the probe post by fix time, both timed on the wall clock (performance.timeOrigin +
    // performance.now()) as the two processes share it.
    const probeAnswered = new Map<string, number>();
    const frames: { ts: string; at: number }[] = [];
    let open = 0;
    let streamErrors = 0;
    streamsChild = fork(path.join(import.meta.dirname, "soak-streams.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, STREAM_URL: `${app.baseUrl}/api/v1/stream?trackableIds=${probe}&types=geofence.entry,geofence.exit`, STREAM_KEY: key, STREAM_COUNT: String(streamClients) },
    });
    streamsChild.on("message", (m: StreamsMessage) => {
      if (m.kind === "count") ({ open, errors: streamErrors } = m);
      else frames.push(...m.frames);
    });
    const deadline = performance.now() + 30_000;
    while (open < streamClients && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    console.log(`  ${open} of ${streamClients} streams open (${streamErrors} refused or failed)`);

    // Open loop: request i is due at start + i / rate; per minute, what was answered and delivered in it.
    const latencies: number[] = [];
    // The same latencies by kind of request: which kind the tail is made of.
    const byKind = new Map<string, number[]>();
    let errors = 0;
    // What failed, by kind of request and status ("batch 400"), so a bench error is told from a server one.
    const failures = new Map<string, number>();
    const fail = (what: string) => {
      errors++;
      failures.set(what, (failures.get(what) ?? 0) + 1);
    };
    const started = performance.now();
    const end = started + minutes * 60_000;
    const port = new URL(app.baseUrl).port;
    const inFlight = new Set<Promise<void>>();
    let probes = 0;
    const probeLoop = (async () => {
      while (performance.now() < end) {
        await new Promise((r) => setTimeout(r, 5000));
        const c = crossing(probe!);
        try {
          const res = await fetch(`${app.baseUrl}/api/v1/trackables/${probe}/locations`, { method: "POST", headers, body: JSON.stringify(c.body) });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          probeAnswered.set((c.body as { timestamp: string }).timestamp, wallNow());
          probes++;
        } catch (err) {
          // A failed probe is reported with the minute's errors; the soak goes on.
          fail(`probe ${String((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message)}`);
        }
      }
    })();
    let minute = 0;
    const ownLoop = monitorEventLoopDelay({ resolution: LOOP_TIMER_MS });
    ownLoop.enable();
    const report = async (label?: string) => {
      minute++;
      const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
      const ages = [...metrics.matchAll(/^fenceline_jobs_oldest_queued_age_seconds\{[^}]*\} (\S+)$/gm)].map((m) => Number(m[1]));
      // The server's event-loop delay since the last scrape (prom-client resets its histogram at each), and this
      // process's own: a post timed while either loop was held shows that hold in its latency. Both histograms time
      // a 10 ms timer (prom-client's default precision, and ownLoop's), so an idle loop reads 10 ms: the delay is
      // what lies beyond it.
      const serverLoopP99 = Number(/^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(metrics)?.[1] ?? NaN) * 1000 - LOOP_TIMER_MS;
      const ownLoopP99 = ownLoop.percentile(99) / 1e6 - LOOP_TIMER_MS;
      ownLoop.reset();
      const rss = serverRssMb(pid);
      const webhookMs = pair(answeredAt, deliveredAt);
      // Per probe post: every frame of it, timed from the post's answer; a probe is complete when every open stream got it.
      const frameMs: number[] = [];
      // (Posts answered in the last 2 s wait for the next report, their frames possibly still on the way.)
      let complete = 0;
      let probeCount = 0;
      const done = new Set<string>();
      for (const [ts, t] of probeAnswered) {
        if (wallNow() - t < 2000) continue;
        const got = frames.filter((f) => f.ts === ts);
        for (const f of got) frameMs.push(Math.max(0, f.at - t));
        if (got.length >= open) complete++;
        probeCount++;
        done.add(ts);
        probeAnswered.delete(ts);
      }
      console.log(
        `  ${label ?? `minute ${String(minute).padStart(2)}`}: ${fmt(latencies.length / 60)} req/s, POST p50 ${fmt(quantile(latencies, 0.5), 1)} ms p99 ${fmt(quantile(latencies, 0.99), 1)} ms (${[...byKind].map(([k, xs]) => `${k} ${fmt(quantile(xs, 0.99), 1)}`).join(", ")}), ${errors} errors${errors ? ` (${[...failures].map(([k, n]) => `${n} ${k}`).join(", ")})` : ""}; ` +
          `POST → webhook p95 ${fmt(quantile(webhookMs, 0.95), 1)} ms (${webhookMs.length} delivered, ${answeredAt.size} awaited); RSS ${fmt(rss.total)} MB; ` +
          `oldest queued job ${fmt(Math.max(0, ...ages), 2)} s; streams: ${open} open, frames p99 ${fmt(quantile(frameMs, 0.99), 1)} ms, max ${fmt(Math.max(0, ...frameMs), 1)} ms, ` +
          `${complete} of ${probeCount} probes reached every stream; event loop p99: server ${fmt(serverLoopP99, 1)} ms, load generator ${fmt(ownLoopP99, 1)} ms; load average ${loadAverage()}`,
      );
      if (pgStats) console.log(await pgStats.minute());
      latencies.length = 0;
      byKind.clear();
      errors = 0;
      failures.clear();
      frames.splice(0, frames.length, ...frames.filter((f) => !done.has(f.ts)));
    };
    let nextReport = started + 60_000;
    for (let i = 0; performance.now() < end; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (performance.now() >= nextReport) {
        nextReport += 60_000;
        await report();
      }
      const r = mix(i);
      const kind = r.path.startsWith("/ingest") ? "traccar" : r.key ? "crossing" : "batch";
      const t0 = performance.now();
      const p = fetch(`http://127.0.0.1:${port}${r.path}`, { method: "POST", headers: r.headers, body: r.body })
        .then(async (res) => {
          await res.arrayBuffer();
          const ms = performance.now() - t0;
          latencies.push(ms);
          let list = byKind.get(kind);
          if (!list) byKind.set(kind, (list = []));
          list.push(ms);
          if (!res.ok) fail(`${kind} ${res.status}`);
          else if (r.key) answeredAt.set(r.key, performance.now());
        })
        .catch((err: unknown) => fail(String((err as { cause?: { code?: string } }).cause?.code ?? err)))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    await probeLoop;
    await new Promise((r) => setTimeout(r, 2500));
    await report("after the last post (the rate: its count ÷ 60)");
    await pgStats?.end();
    console.log(`  ${probes} probe posts; load average at the end ${loadAverage()}`);
  } finally {
    streamsChild?.kill();
    await app.stop();
    await receiver.close();
    await db?.drop();
  }
}

/**
 * Postgres's side of each minute (BENCH_PG_STATS=1): the statements of the soak's database that took the most execution
 * time since the last call (pg_stat_statements), with calls and mean ms a call, and the live and dead rows of the
 * tables that the load grows or churns.
 */
async function statementWatch(url: string) {
  const stats = postgres(PG_BASE, { max: 1, onnotice: () => {} });
  const own = postgres(url, { max: 1, onnotice: () => {} });
  const [database] = await stats`select oid::int from pg_database where datname = ${new URL(url).pathname.slice(1)}`;
  const dbid = database!.oid as number;
  let last = new Map<string, { calls: number; ms: number }>();
  return {
    async minute(): Promise<string> {
      const rows = await stats`select queryid::text as id, calls::float8 as calls, total_exec_time::float8 as ms, query from pg_stat_statements where dbid = ${dbid}`;
      const now = new Map(rows.map((r) => [r.id as string, { calls: r.calls as number, ms: r.ms as number }]));
      const text = new Map(rows.map((r) => [r.id as string, (r.query as string).replace(/\s+/g, " ").slice(0, 90)]));
      const delta = [...now].map(([id, v]) => ({ id, calls: v.calls - (last.get(id)?.calls ?? 0), ms: v.ms - (last.get(id)?.ms ?? 0) }));
      last = now;
      const total = delta.reduce((s, d) => s + d.ms, 0);
      const top = delta.sort((a, b) => b.ms - a.ms).slice(0, 6);
      const tables = await own`select relname, n_live_tup::int as live, n_dead_tup::int as dead from pg_stat_user_tables
        where relname in ('locations', 'events', 'jobs', 'motion_inbox', 'webhook_deliveries', 'webhook_delivery_attempts', 'idempotency_keys', 'trips', 'stops', 'trackable_states') order by relname`;
      return (
        `    Postgres: ${fmt(total)} ms of statements; ` +
        top.map((d) => `${fmt(d.ms)} ms = ${fmt(d.calls)} × ${fmt(d.ms / Math.max(1, d.calls), 3)} ms «${text.get(d.id)}»`).join("; ") +
        `\n    tables (live/dead): ${tables.map((t) => `${t.relname} ${fmt(t.live as number)}/${fmt(t.dead as number)}`).join(", ")}`
      );
    },
    async end() {
      await stats.end();
      await own.end();
    },
  };
}

/**
 * Milliseconds until the server has no workflow run due and waiting (fenceline_jobs_queued) and the webhook receiver
 * has had no new delivery for half a second: the work a load left behind is done. At most two minutes.
 */
async function caughtUp(baseUrl: string, delivered: ReadonlyMap<string, number>): Promise<number> {
  const t0 = performance.now();
  let count = delivered.size;
  let quietSince = performance.now();
  while (performance.now() - t0 < 120_000) {
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    const queued = [...metrics.matchAll(/^fenceline_jobs_queued\{[^}]*\} (\S+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    if (delivered.size !== count || queued > 0) {
      count = delivered.size;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= 500) return quietSince - t0;
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log("  (the capacity run's work was still not done after 2 minutes)");
  return performance.now() - t0;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
