// Ingest throughput: single-point posts (requests/s) and 100-point batches (points/s) against `next start` on
// Postgres, beside a baseline (bench/baseline-server.ts: node:http + the same insert with postgres.js) measured in the
// same run; single points from a tracking app, POST /ingest/traccar in the query form (device token, resend check);
// and the app again once the account has [fences] geofences around the points (half circles, half 20-vertex polygons). Usage: npx tsx bench/ingest.ts [seconds=10] [concurrency=16] [fences=1000]
import { spawn } from "node:child_process";
import { buildIfStale } from "@/scripts/build";
import { freePort, startServer } from "@/tests/harness/server";
import { cpuMs, createFences, fmt, load, loadAverage, point, provisionKey, scratchDatabase } from "./lib";

const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 16);
const fenceCount = Number(process.argv[4] ?? 1000);

async function main() {
  buildIfStale();
  const db = await scratchDatabase("fenceline_bench");
  process.env.DATABASE_URL = db.url;
  // The app migrates the scratch database; the per-key limit is lifted so the bench measures ingest, not 429s.
  const app = await startServer({
    databaseUrl: db.url,
    env: { RATE_LIMIT_PER_MINUTE: "1000000000", DEVICE_RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" },
    // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the app server, written there when it stops.
    nodeArgs: process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  });
  const port = await freePort();
  const baseline = spawn(process.execPath, ["--import", "tsx", "bench/baseline-server.ts"], {
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((r) => baseline.stdout!.once("data", () => r()));
  try {
    const key = await provisionKey(app, "bench", "enterprise");
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const trackables: string[] = [];
    const deviceTokens: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      const t = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers, body: JSON.stringify({ name: `bench ${i}` }) });
      const id = ((await t.json()) as { id: string }).id;
      trackables.push(id);
      const d = await fetch(`${app.baseUrl}/api/v1/trackables/${id}/device-tokens`, { method: "POST", headers, body: "{}" });
      deviceTokens.push(((await d.json()) as { token: string }).token);
    }
    const app0 = { base: app.baseUrl, pid: app.process.pid! };
    // The baseline runs last: it inserts into the same trackables without evaluating, and the app would otherwise
    // spend the next run evaluating the baseline's points.
    const targets: [string, { base: string; pid: number }, (() => Promise<void>)?][] = [
      ["next start (Fenceline), no geofences", app0],
      [`next start (Fenceline), ${fmt(fenceCount)} geofences`, app0, () => createFences(app.baseUrl, headers, fenceCount)],
      ["baseline (node:http + postgres.js)", { base: `http://127.0.0.1:${port}`, pid: baseline.pid! }],
    ];
    const batch = { locations: Array.from({ length: 100 }, (_, i) => point(i)) };
    const rates: Record<string, number> = {};
    console.log(`ingest bench: ${seconds} s per run, ${concurrency} concurrent clients, Postgres, load average ${loadAverage()}`);
    for (const [label, { base, pid }, before] of targets) {
      await before?.();
      const url = (i: number) => `${base}/api/v1/trackables/${trackables[i % trackables.length]}/locations`;
      await load((i) => fetch(url(i), { method: "POST", headers, body: JSON.stringify(point(i)) }), { concurrency, seconds: 2 }); // warm-up
      const cpu0 = cpuMs(pid);
      const single = await load((i) => fetch(url(i), { method: "POST", headers, body: JSON.stringify(point(i)) }), { concurrency, seconds });
      const cpuPerPost = (cpuMs(pid) - cpu0) / single.requests;
      rates[label] = single.perSecond;
      const batched = await load((i) => fetch(url(i), { method: "POST", headers, body: JSON.stringify(batch) }), { concurrency, seconds });
      console.log(
        `${label.padEnd(40)} single: ${fmt(single.perSecond).padStart(6)} req/s (p50 ${fmt(single.p50, 1)} ms, p95 ${fmt(single.p95, 1)} ms, ${single.errors} errors, server CPU ${fmt(cpuPerPost, 2)} ms/post)` +
          `   batch of 100: ${fmt(batched.perSecond * 100).padStart(7)} points/s (p50 ${fmt(batched.p50, 1)} ms, p95 ${fmt(batched.p95, 1)} ms, ${batched.errors} errors)`,
      );
      if (base !== app.baseUrl) continue;
      // The same app, one point per request as Traccar Client (Android) sends it: the token and the point in the query.
      const traccar = (i: number) => {
        const p = point(i);
        const q = `id=${deviceTokens[i % deviceTokens.length]}&lat=${p.latitude}&lon=${p.longitude}&accuracy=${p.accuracy}&batt=${p.battery}`;
        return fetch(`${base}/ingest/traccar?${q}`, { method: "POST" });
      };
      await load(traccar, { concurrency, seconds: 2 }); // warm-up
      const cpu1 = cpuMs(pid);
      const device = await load(traccar, { concurrency, seconds });
      const cpuPerDevicePost = (cpuMs(pid) - cpu1) / device.requests;
      rates.traccar = device.perSecond;
      console.log(
        `${"  POST /ingest/traccar (query form)".padEnd(36)} single: ${fmt(device.perSecond).padStart(6)} req/s (p50 ${fmt(device.p50, 1)} ms, p95 ${fmt(device.p95, 1)} ms, ${device.errors} errors, server CPU ${fmt(cpuPerDevicePost, 2)} ms/post)`,
      );
    }
    const [api, base] = Object.keys(targets).map((k) => rates[k]!);
    console.log(
      `single posts, ratio to the baseline: /api/v1 ${fmt(api! / base!, 3)} · /ingest/traccar ${fmt(rates.traccar! / base!, 3)} · /ingest/traccar ÷ /api/v1 ${fmt(rates.traccar! / api!, 2)}`,
    );
  } finally {
    baseline.kill();
    await app.stop();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
