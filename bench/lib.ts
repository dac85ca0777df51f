import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { adminRequest } from "@/lib/http/admin-socket";
import { buildIfStale, serverBundleDir, staleParts } from "@/scripts/build";
import { freePort, removeDataDir } from "@/tests/harness/server";
import { scratchPostgres } from "@/tests/support/scratch-db";

export const PG_BASE = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/**
 * Node flags for a bench's app server: with BENCH_CPU_PROF=<dir> a CPU profile written there, and BENCH_NODE_ARGS
 * ("--flag …") added to the app server's own flags (a V8 setting tried against the default, run after run).
 */
export const benchNodeArgs = (): string[] => [
  ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
];

/**
 * Stored history for benches, in one statement: points $2 to $3 for each trackable of $1 (uuid[]), one a second
 * from $4 (timestamptz), with source $5. Latitudes and longitudes vary, so no two points of a trackable match. Run it
 * with postgres.js's `sql.unsafe(HISTORY_INSERT, params)` or lib's `queryRows(db, HISTORY_INSERT, params)`.
 */
export const HISTORY_INSERT = `insert into locations (id, trackable_id, latitude, longitude, accuracy, battery, timestamp, received_at, source)
  select gen_random_uuid(), t, 52.5 + (g % 1000) / 10000.0, 13.4 + (g % 777) / 10000.0, 5, 80,
         $4::timestamptz + g * interval '1 second', now(), $5::text
  from unnest($1::uuid[]) t, generate_series($2::int, $3::int) g`;

/** A throwaway database on the bench Postgres, dropped by the returned function. */
export const scratchDatabase = (prefix: string) => scratchPostgres(PG_BASE, prefix);

/**
 * Makes a scratch database's server one without motion's inbox, for a server started with FENCELINE_BENCH_NO_MOTION=1:
 * its trigger on locations announces nothing to motion and only checks each statement's trackables (they exist, and
 * stay until the transaction ends), the check that motion_inbox's foreign key makes for the product (drizzle/0029).
 * So a motion-off run pays what ingest without motion would, no less.
 */
export async function withoutMotionInbox(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create or replace function bench_locations_checked() returns trigger language plpgsql as $$
      begin
        perform 1 from trackables t where t.id in (select distinct trackable_id from stored) for key share of t;
        if exists (select 1 from stored s where not exists (select 1 from trackables t where t.id = s.trackable_id)) then
          raise foreign_key_violation using message = 'a location of no trackable';
        end if;
        return null;
      end $$`);
    await sql.unsafe("drop trigger if exists locations_motion_inbox on locations");
    await sql.unsafe(`create trigger locations_checked after insert on locations referencing new table as stored
      for each statement execute function bench_locations_checked()`);
  } finally {
    await sql.end();
  }
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Seconds the clients sent for. */
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
}

/** A POST: path, body and headers. */
export type Post = { path: string; body?: string; headers?: Record<string, string> };

/**
 * `concurrency` keep-alive node:http clients on 127.0.0.1:`port` (one socket each: a cheap load generator) each
 * POSTing `make(i)` back to back for `seconds`; an answer whose status `ok` accepts counts as done (2xx by default).
 * Client c sends i = c, c + concurrency, c + 2·concurrency…: with as many trackables as clients and the trackable
 * picked by i modulo their number, each trackable is posted by one client, one request after the other, as a device
 * sends (two posts of one trackable in flight at once would commit in either order, and a fix stored after a later
 * one is a late fix that makes motion recompute).
 */
export async function load(
  port: number,
  make: (i: number) => Post,
  opts: { concurrency: number; seconds: number; ok?: (status: number) => boolean },
): Promise<LoadResult> {
  const ok = opts.ok ?? ((s: number) => s >= 200 && s < 300);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const send = (r: Post) =>
    new Promise<number>((resolve, reject) => {
      const body = r.body ?? "";
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: r.path,
          agent,
          headers: { ...r.headers, "Content-Length": Buffer.byteLength(body), "Accept-Encoding": "gzip" },
        },
        (res) => {
          res.on("data", () => {});
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const latencies: number[] = [];
  let requests = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, client) => {
      for (let i = client; performance.now() < end; i += opts.concurrency) {
        const t0 = performance.now();
        try {
          if (ok(await send(make(i)))) requests++;
          else errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests, errors, seconds, perSecond: requests / seconds, p50: q(0.5), p95: q(0.95) };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function point(i: number) {
  return { latitude: 52.5 + (i % 1000) / 10000, longitude: 13.4 + (i % 777) / 10000, accuracy: 5, battery: 80 };
}

/**
 * The points of a trackable's `visit`-th 100-point batch (point(0) … point(99), a 1.4 km line of 11 m steps through
 * the fences of fenceBody): "continuous" drives the line back and forth (odd visits backwards), the track of a device
 * going up and down a street; "restart" starts every batch at point(0) again, so the device jumps 1.4 km back between
 * two batches (twice the boundaries crossed: the stress case of dense crossings).
 */
export function trackBatch(visit: number, track: "continuous" | "restart") {
  const points = Array.from({ length: 100 }, (_, i) => point(i));
  return track === "continuous" && visit % 2 === 1 ? points.reverse() : points;
}

/** The fix interval of a timed batch: 11 m steps every 2 s, a car in town at 20 km/h. */
export const BATCH_FIX_SECONDS = 2;
const batchClocks = new WeakMap<object, number[]>();

/**
 * The i-th request's batch for `trackables` (the request goes to trackables[i % length]), as a phone's buffered upload
 * sends it: each fix stamped BATCH_FIX_SECONDS after the one before, the trackable's clock carried on from its previous
 * batch across runs (the same `trackables` array), starting thirty days ago so no fix lies in the future (a batch moves
 * its trackable's clock on by 200 s: two days lasted a few runs, then every post was refused). Without stamps the API
 * would give all 100 points the time of receipt, 1.1 km covered in no time, which motion reads as a jump.
 */
export function timedBatchOf(trackables: readonly string[], track: "continuous" | "restart") {
  let clocks = batchClocks.get(trackables);
  if (!clocks) batchClocks.set(trackables, (clocks = trackables.map(() => 0)));
  const start = Date.now() - 30 * 24 * 3600_000;
  return (i: number) => {
    const t = i % trackables.length;
    const visit = clocks[t]!++;
    const first = start + visit * 100 * BATCH_FIX_SECONDS * 1000;
    const locations = trackBatch(visit, track).map((p, k) => ({ ...p, timestamp: new Date(first + k * BATCH_FIX_SECONDS * 1000).toISOString() }));
    return { locations };
  };
}

/**
 * A new API key on a bench server, through its operator socket (what `npm run apikey:create` calls); an older build
 * served by BENCH_APP_DIR has no socket and answers the same request on its HTTP port.
 */
export async function provisionKey(app: BenchServer, account: string, plan: "free" | "enterprise"): Promise<string> {
  if (!fs.existsSync(app.adminSocket)) {
    const res = await fetch(`${app.baseUrl}/api/internal/api-keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${app.adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ account, plan }),
    });
    if (res.status !== 201) throw new Error(`provisioning failed: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { key: string }).key;
  }
  const res = await adminRequest(app.adminSocket, app.adminToken, "POST", "/api-keys", { account, plan });
  if (res.status !== 201) throw new Error(`provisioning failed: HTTP ${res.status} ${res.text}`);
  return (res.body as { key: string }).key;
}

/**
 * The app a bench serves: this checkout's (built when stale), or with BENCH_APP_DIR=<dir> another checkout's built app
 * (a git worktree of an older commit with `next build` and the server bundle made there), so the same bench script
 * measures a before and an after. Returns the directory to hand to startServer's appDir (undefined: this one).
 */
export function benchApp(): string | undefined {
  const dir = process.env.BENCH_APP_DIR;
  if (!dir) {
    buildIfStale();
    return undefined;
  }
  const stale = staleParts(dir);
  if (stale.next || stale.bundle) throw new Error(`BENCH_APP_DIR=${dir} has no up-to-date build: run its build there first`);
  console.log(`serving the app built in ${dir}`);
  return dir;
}

export interface BenchServer {
  baseUrl: string;
  adminToken: string;
  adminSocket: string;
}

/**
 * The i-th of the benches' geofences, spread around their points (see point()): even ones circles, odd ones 20-vertex
 * star polygons, with the centre and bounding radius the API would store for them.
 */
export function fenceBody(i: number) {
  const lat = 52.4 + ((i * 7919) % 1000) / 5000;
  const lon = 13.2 + ((i * 104729) % 1000) / 2500;
  if (i % 2 === 0) return { name: `fence ${i}`, latitude: lat, longitude: lon, radius: 100 + (i % 20) * 50 };
  const ring: [number, number][] = Array.from({ length: 20 }, (_, k) => {
    const a = (2 * Math.PI * k) / 20;
    const r = (k % 2 ? 0.004 : 0.002) * (1 + (i % 5) / 5);
    return [lon + Math.sin(a) * r * 1.6, lat + Math.cos(a) * r];
  });
  ring.push(ring[0]!);
  // The farthest vertex bounds the star (what the API stores as a polygon's radius is at least that).
  const radius = Math.max(...ring.map(([x, y]) => Math.hypot((x - lon) * 111_320 * Math.cos((lat * Math.PI) / 180), (y - lat) * 110_574))) * 1.01;
  return { name: `fence ${i}`, shape: "polygon" as const, geometry: { type: "Polygon" as const, coordinates: [ring] }, latitude: lat, longitude: lon, radius };
}

/** The first fenceCount of fenceBody's geofences, through the API, 20 at a time. */
export async function createFences(base: string, headers: Record<string, string>, fenceCount: number): Promise<void> {
  const body = (i: number) => {
    const { latitude, longitude, radius, ...fence } = fenceBody(i);
    return "geometry" in fence ? fence : { ...fence, latitude, longitude, radius };
  };
  for (let i = 0; i < fenceCount; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, fenceCount - i) }, async (_, k) => {
        const res = await fetch(`${base}/api/v1/geofences`, { method: "POST", headers, body: JSON.stringify(body(i + k)) });
        if (res.status !== 201) throw new Error(`creating fence ${i + k}: ${res.status} ${await res.text()}`);
      }),
    );
  }
}

/**
 * The garbage collector's time on an app server's main thread so far, in ms (minor, major and incremental collections:
 * prom-client's nodejs_gc_duration_seconds from its /metrics); null for a server without it (the bare baselines).
 */
export async function gcMs(port: number): Promise<number | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    if (!res.ok) return null;
    const sums = [...(await res.text()).matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm)];
    return sums.length === 0 ? null : sums.reduce((ms, m) => ms + Number(m[1]) * 1000, 0);
  } catch {
    return null;
  }
}

/** CPU time (user + system) of a process's main thread (the event loop's: its thread id is the process id), in ms. */
export function mainThreadMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/** utime + stime of a /proc stat file (statFields), in ms; NaN when the process or thread is gone. */
function statCpuMs(file: string): number {
  const fields = statFields(file);
  return fields ? (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS : NaN;
}

/**
 * The fields after the command name of a /proc stat file (a process's, or a thread's under /proc/<pid>/task), or null
 * when it is gone. Field 11 is utime, 12 stime, in clock ticks (CLOCK_TICK_MS).
 */
export function statFields(file: string): string[] | null {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Milliseconds per clock tick of /proc's CPU times (USER_HZ, 100 on Linux). */
export const CLOCK_TICK_MS = 10;

/**
 * CPU time (user + system) a server process has used, in ms: per post it is steadier than req/s on a shared machine,
 * where the load of others moves the throughput but not the work each request costs. Linux only (NaN elsewhere).
 */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** The process and all its descendants (the server and, on the embedded database, the database's own process). */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = Number(statFields(`/proc/${name}/stat`)?.[1]);
    if (!parents.has(ppid)) parents.set(ppid, []);
    parents.get(ppid)!.push(Number(name));
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** CPU time (user + system) the server's processes have used so far, from /proc (Linux). */
export function serverCpuMs(pid: number): number {
  // A process that ended meanwhile counts nothing.
  return processTree(pid).reduce((sum, p) => sum + (cpuMs(p) || 0), 0);
}

/** Memory of the server's processes (MB): RSS of each, and the PSS and anonymous memory of all, from /proc/<pid>/smaps_rollup. */
export function serverRssMb(pid: number): { total: number; each: number[]; pss: number; anon: number } {
  const procs = processTree(pid).map((p) => {
    try {
      // smaps_rollup (Linux ≥ 4.14): Rss counts the pages two processes share (node's own code) in each; Pss divides
      // them among the sharers, so the Pss of a process tree adds up to what it occupies; Anonymous is its own heap.
      const text = fs.readFileSync(`/proc/${p}/smaps_rollup`, "utf8");
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) / 1024;
      return { rss: kb("Rss"), pss: kb("Pss"), anon: kb("Anonymous") };
    } catch {
      return { rss: 0, pss: 0, anon: 0 };
    }
  });
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { total: sum(procs.map((p) => p.rss)), each: procs.map((p) => p.rss), pss: sum(procs.map((p) => p.pss)), anon: sum(procs.map((p) => p.anon)) };
}

/** The load average of the machine (1, 5 and 15 minutes), for the record of a run. */
export const loadAverage = () => (fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") : "?");

/**
 * bench/baseline-server.ts (bare node:http + postgres.js) on a free port, once it listens: over `databaseUrl`, or with
 * null on an embedded database of its own in a fresh data directory (PGlite in a process of its own, started from the
 * server's bundle as the app's is). stop() ends it and removes that directory.
 */
export async function startBaseline(
  databaseUrl: string | null,
  opts: { strict?: boolean } = {},
): Promise<{ port: number; process: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = databaseUrl === null ? fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-bare-")) : null;
  const child = spawn(process.execPath, ["--import", "tsx", "bench/baseline-server.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl ?? "",
      ...(dataDir ? { DATA_DIR: dataDir, FENCELINE_SERVER_BUNDLE: serverBundleDir } : {}),
      BASELINE: opts.strict ? "strict" : "app-table",
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The database's process writes to the same stdout (it inherits it): the server is up at its own "ready" line.
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!/^ready$/m.test(out)) return;
      child.off("exit", onExit);
      resolve();
    };
    const onExit = (code: number | null) => reject(new Error(`the baseline server exited while starting (${code}): ${out}`));
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    port,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await exited;
      }
      // Its database's process closes once the server is gone, then the directory goes.
      if (dataDir) await removeDataDir(dataDir);
    },
  };
}

/**
 * Waits until servers' processes (each and its children: the embedded database's) have done nothing for `quietMs`:
 * no time on a CPU nor waiting for one (/proc's schedstat of every thread, in ns, so a starved process does not pass
 * for an idle one). Resolves with the ms from the call to the end of the last work seen (0 when it was quiet). This is
 * how a bench sees, on the embedded database, that the work queued behind the posts is done (the bench cannot query
 * the app's database: it serves one connection, the app's). Work comes without a pause (on PGlite a query is CPU, not
 * a wait) but for the job runner's waits (a batch's linger, the deletion of finished jobs: 50 ms at most), so 100 ms
 * without any ends it; an idle app still claims jobs every 250 ms (a few ms of work), which falls in such a gap and
 * so counts only when it comes right after the work. Linux only; gives up after `limitMs`.
 */
export async function quiet(servers: readonly number[], { quietMs = 100, pollMs = 10, limitMs = 60_000 } = {}): Promise<number> {
  const pids = [...new Set(servers.flatMap(processTree))];
  const busyNs = () => {
    let ns = 0;
    for (const p of pids) {
      let tasks: string[];
      try {
        tasks = fs.readdirSync(`/proc/${p}/task`);
      } catch {
        continue; // gone
      }
      for (const t of tasks) {
        try {
          const [run, wait] = fs.readFileSync(`/proc/${p}/task/${t}/schedstat`, "utf8").split(" ");
          ns += Number(run) + Number(wait);
        } catch {
          // a thread that ended meanwhile
        }
      }
    }
    return ns;
  };
  const t0 = performance.now();
  let lastBusy = t0;
  let last = busyNs();
  let quietFrom = t0;
  for (;;) {
    await new Promise((r) => setTimeout(r, pollMs));
    const now = performance.now();
    const ns = busyNs();
    // More than a tenth of the poll on a CPU or waiting for one: at work (an idle server's timers cost far less).
    if (ns - last > pollMs * 100_000) {
      lastBusy = now;
      quietFrom = now;
    } else if (now - quietFrom >= quietMs) {
      return lastBusy === t0 ? 0 : lastBusy - t0;
    }
    last = ns;
    if (now - t0 > limitMs) {
      console.log(`  (the servers were still at work after ${limitMs / 1000} s)`);
      return now - t0;
    }
  }
}

/** A bench account: its API headers and `count` trackables, each with a device token. */
export interface BenchAccount {
  headers: Record<string, string>;
  trackables: string[];
  tokens: string[];
}

/** An enterprise account with `count` trackables, each with a device token. */
export async function benchAccount(app: BenchServer, name: string, count: number): Promise<BenchAccount> {
  const key = await provisionKey(app, name, "enterprise");
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const trackables: string[] = [];
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const t = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers, body: JSON.stringify({ name: `${name} ${i}` }) });
    const id = ((await t.json()) as { id: string }).id;
    trackables.push(id);
    const d = await fetch(`${app.baseUrl}/api/v1/trackables/${id}/device-tokens`, { method: "POST", headers, body: "{}" });
    tokens.push(((await d.json()) as { token: string }).token);
  }
  return { headers, trackables, tokens };
}

/** Traccar Client's query-form post of point(i) with the i-th token (round robin). */
export function traccarPost(tokens: readonly string[]) {
  return (i: number): Post => {
    const p = point(i);
    return { path: `/ingest/traccar?id=${tokens[i % tokens.length]}&lat=${p.latitude}&lon=${p.longitude}&accuracy=${p.accuracy}&batt=${p.battery}` };
  };
}

/**
 * CPU time of every Postgres process on the machine (the bench's database server), in ms; with `database`, only the
 * backends connected to it (told apart by the database name in their command line).
 */
export function postgresMs(database?: string): number {
  let total = 0;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "postgres") continue;
      // "postgres: [<cluster>: ]<user> <database> <host>(<port>) <state>"
      if (database !== undefined && !fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\s\0]+/).includes(database)) continue;
    } catch {
      continue; // exited meanwhile
    }
    total += cpuMs(Number(pid)) || 0;
  }
  return total;
}

/**
 * Waits until a bench database has no evaluation queued or running (its jobs table), polling every 20 ms: how long
 * that took (ms), or null when some were still pending after `limitMs`.
 */
export async function evaluationsDrained(sql: postgres.Sql, limitMs = 60_000): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitMs) {
    const [row] = await sql`select count(*)::int as n from jobs where name = 'evaluate-geofences'`;
    if (row!.n === 0) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 20));
  }
  return null;
}
