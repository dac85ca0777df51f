// Latency from `POST …/locations` returning to the receiver getting geofence.entry, on the embedded runner (PGlite,
// the default install), with 50 entry events per second sustained for a minute. Prints p50/p95/p99/max, the server's
// CPU per event (all its processes), GET /api/health latency during the run and the server's RSS after it.
// Usage: npx tsx bench/webhook-latency.ts [seconds=60] [eventsPerSecond=50]; with DATABASE_URL, on that Postgres;
// with DATABASE_URL and SERVERS=2, two app servers on it, the posts sent to them in turn (CPU and RSS: both summed).
// BENCH_NODE_ARGS="--flag …" adds node flags to the app server's own, BENCH_CPU_PROF=<dir> writes its CPU profile.
// BENCH_APP_DIR=<dir> serves another checkout's built app (a before/after; see bench/README.md).
import fs from "node:fs";
import path from "node:path";
import { startServer } from "@/tests/harness/server";
import { startReceiver } from "@/tests/support/receiver";
import { benchApp, benchNodeArgs, fmt, provisionKey, serverCpuMs, serverRssMb } from "./lib";

const seconds = Number(process.argv[2] ?? 60);
const rate = Number(process.argv[3] ?? 50);

async function main() {
  const appDir = benchApp();
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver({ secret: "latency-secret" });
  // PGlite (the default install) unless DATABASE_URL is set: then a scratch database on that Postgres.
  const servers = Number(process.env.SERVERS ?? 1);
  // BENCH_HEAP_SNAPSHOT=<dir>: a heap snapshot of the (first) app server, written there after the rest below.
  const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
  if (snapshotDir) fs.mkdirSync(snapshotDir, { recursive: true });
  if (snapshotDir) fs.mkdirSync(snapshotDir, { recursive: true });
  if (servers > 1 && !process.env.DATABASE_URL) throw new Error("SERVERS=2 needs DATABASE_URL (the embedded database serves one process)");
  const options = {
    appDir,
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" },
    // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the server, written there when it stops.
    nodeArgs: [...benchNodeArgs(), ...(snapshotDir ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapshotDir}`] : [])],
  };
  const app = await startServer(options);
  const apps = [app];
  while (apps.length < servers) apps.push(await startServer({ ...options, databaseUrl: app.databaseUrl! }));
  const pids = () => apps.map((a) => a.process.pid!);
  let turn = 0;
  const rssNow = () => pids().map(serverRssMb).map((r) => fmt(r.each[0]!)).join(" + ");
  try {
    const startedRss = rssNow();
    const key = await provisionKey(app, "latency", "enterprise");
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    // One retry on a connection reset: a keep-alive socket the server closed just as the client reused it.
    const post = async (path: string, body: unknown): Promise<Response> => {
      const base = apps[turn++ % apps.length]!.baseUrl;
      const send = () => fetch(`${base}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      try {
        return await send();
      } catch {
        return send();
      }
    };
    await post("/geofences", { name: "Zone", latitude: 0, longitude: 0, radius: 1000, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: "latency-secret" });
    // Each event is a fresh trackable entering the zone (its first fix inside), so every POST yields one entry.
    const total = seconds * rate;
    // Made 8 at a time (setup, not measured).
    const trackables: string[] = new Array(total);
    let made = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (made < total) {
          const i = made++;
          trackables[i] = ((await (await post("/trackables", { name: `t${i}` })).json()) as { id: string }).id;
        }
      }),
    );
    console.log(`  app server RSS after start ${startedRss} MB, after the set-up (${fmt(total)} trackables) ${rssNow()} MB`);
    receiver.setResponder((r) => {
      arrivals.set(r.json.beacon.id, performance.now());
      return { status: 200 };
    });

    const sent = new Map<string, number>();
    const returned = new Map<string, number>();
    const failures: string[] = [];
    const cpuBefore = pids().reduce((sum, pid) => sum + serverCpuMs(pid), 0);
    const started = performance.now();
    // GET /api/health every 100 ms while the posts go out (it reads the database): the event loop must stay free.
    const health: number[] = [];
    let sending = true;
    const probing = (async () => {
      while (sending) {
        const t0 = performance.now();
        try {
          const res = await fetch(`${apps[health.length % apps.length]!.baseUrl}/api/health`);
          await res.arrayBuffer();
          if (res.ok) health.push(performance.now() - t0);
          else failures.push(`health HTTP ${res.status}`);
        } catch (err) {
          failures.push(`health ${String(err)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const posts: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = trackables[i]!;
      sent.set(id, performance.now());
      posts.push(
        post(`/trackables/${id}/locations`, { latitude: 0.001, longitude: 0.001 }).then(
          async (res) => {
            await res.arrayBuffer();
            if (res.status === 201) returned.set(id, performance.now());
            else failures.push(`HTTP ${res.status}`);
          },
          (err: unknown) => void failures.push(String((err as { cause?: { code?: string } }).cause?.code ?? err)),
        ),
      );
    }
    await Promise.all(posts);
    const sendSeconds = (performance.now() - started) / 1000;
    sending = false;
    await probing;
    const stored = [...returned.keys()];
    await receiver.waitFor(stored.length, 60_000).catch(() => {});
    const cpuMs = pids().reduce((sum, pid) => sum + serverCpuMs(pid), 0) - cpuBefore;
    const latencies = stored.filter((id) => arrivals.has(id)).map((id) => arrivals.get(id)! - returned.get(id)!).sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    const backend = process.env.DATABASE_URL ? `Postgres, ${apps.length} server${apps.length > 1 ? "s" : ""}` : "PGlite";
    console.log(`webhook latency bench: ${fmt(stored.length)} of ${fmt(total)} posts stored at ${fmt(stored.length / sendSeconds, 1)}/s (target ${rate}/s) for ${fmt(sendSeconds, 1)} s, embedded runner on ${backend}`);
    if (failures.length > 0) console.log(`  ${failures.length} posts failed: ${[...new Set(failures)].join(", ")}`);
    console.log(`  ${fmt(latencies.length)} of ${fmt(stored.length)} entries delivered`);
    const quantiles = (xs: number[]) => {
      xs.sort((a, b) => a - b);
      const at = (p: number) => fmt(xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!, 1);
      return `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms`;
    };
    console.log(`  POST sent → response:                       ${quantiles(stored.map((id) => returned.get(id)! - sent.get(id)!))}`);
    console.log(`  POST sent → receiver got geofence.entry:    ${quantiles(stored.filter((id) => arrivals.has(id)).map((id) => arrivals.get(id)! - sent.get(id)!))}`);
    console.log(`  server CPU: ${fmt(cpuMs / Math.max(1, latencies.length), 2)} ms per event (post, evaluation, delivery), ${fmt((100 * cpuMs) / 1000 / sendSeconds)} % of a core while sending`);
    console.log(`  POST returned → receiver got geofence.entry: p50 ${fmt(q(0.5), 1)} ms  p95 ${fmt(q(0.95), 1)} ms  p99 ${fmt(q(0.99), 1)} ms  max ${fmt(latencies.at(-1)!, 1)} ms`);
    console.log(`  all ${fmt(receiver.received.length)} deliveries signed correctly: ${receiver.received.every((r) => r.signatureValid)}`);
    console.log(`  GET /api/health during the run (${fmt(health.length)} probes): ${quantiles(health)}  max ${fmt(Math.max(...health), 1)} ms`);
    const rssOf = pids().map(serverRssMb);
    const rss = { total: rssOf.reduce((sum, r) => sum + r.total, 0), each: rssOf.flatMap((r) => r.each) };
    const pss = rssOf.reduce((sum, r) => sum + r.pss, 0);
    const anon = rssOf.reduce((sum, r) => sum + r.anon, 0);
    console.log(
      `  server RSS after the run: ${fmt(rss.total)} MB (${rss.each.map((m) => fmt(m)).join(" + ")} MB, ${rss.each.length} process${rss.each.length === 1 ? "" : "es"}); ` +
        `PSS ${fmt(pss)} MB, anonymous ${fmt(anon)} MB`,
    );
    // What it returns to once the load is over (V8 gives back heap pages when the process goes idle).
    await new Promise((r) => setTimeout(r, 15_000));
    const rested = pids().map(serverRssMb);
    console.log(
      `  server RSS 15 s later: ${fmt(rested.reduce((sum, r) => sum + r.total, 0))} MB (${rested.flatMap((r) => r.each).map((m) => fmt(m)).join(" + ")} MB)`,
    );
    if (snapshotDir) console.log(`  heap snapshot of the app server: ${await heapSnapshot(app.process.pid!, snapshotDir)}`);
  } finally {
    await receiver.close();
    for (const a of apps.slice(1)) await a.stop();
    await app.stop();
  }
}

/** Signals the server to write a heap snapshot (--heapsnapshot-signal) and waits for the file to be whole. */
async function heapSnapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(fs.readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  const until = Date.now() + 120_000;
  let last = -1;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const file = fs.readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!file) continue;
    const size = fs.statSync(path.join(dir, file)).size;
    if (size > 0 && size === last) return path.join(dir, file);
    last = size;
  }
  throw new Error("no heap snapshot within 2 minutes");
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
