// Where the time goes on the embedded path, without Next.js: the lib verbs a POST …/locations runs (key check, rate
// limit, ingest) and the embedded runner's evaluation and delivery, in one process on a fresh PGlite, counting and
// timing every query. Usage: npx tsx bench/embedded-profile.ts [events=300] [rate=50]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const events = Number(process.argv[2] ?? 300);
const rate = Number(process.argv[3] ?? 50);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-profile-"));
Object.assign(process.env, { DATA_DIR: dir, DATABASE_URL: "", REDIS_URL: "", WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "1000000000" });

interface Stat {
  count: number;
  ms: number;
}
const byQuery = new Map<string, Stat>();
let stage = "setup";
const byStage = new Map<string, Stat>();

function record(sql: string, ms: number) {
  const key = sql.replace(/\s+/g, " ").slice(0, 110);
  const s = byQuery.get(key) ?? { count: 0, ms: 0 };
  s.count++;
  s.ms += ms;
  byQuery.set(key, s);
  const t = byStage.get(stage) ?? { count: 0, ms: 0 };
  t.count++;
  t.ms += ms;
  byStage.set(stage, t);
}

type Queryable = { query: (...a: unknown[]) => Promise<unknown> };
function wrap<T extends Queryable>(target: T): T {
  const query = target.query.bind(target);
  target.query = async (...a: unknown[]) => {
    const t0 = performance.now();
    try {
      return await query(...a);
    } finally {
      record(String(a[0]), performance.now() - t0);
    }
  };
  return target;
}

async function main() {
  // PROFILE_PG=<url>: the same on a scratch database of that Postgres instead of PGlite.
  let drop = async () => {};
  if (process.env.PROFILE_PG) {
    const { scratchPostgres } = await import("@/tests/support/scratch-db");
    const scratch = await scratchPostgres(process.env.PROFILE_PG, "fenceline_profile");
    process.env.DATABASE_URL = scratch.url;
    drop = scratch.drop;
  }
  const { getDbHandle } = await import("@/lib/db/client");
  const { provisionApiKey } = await import("@/lib/api-keys/provision");
  const { verifyApiKey } = await import("@/lib/api-keys/keys");
  const { apiLimiter } = await import("@/lib/rate-limit");
  const { createTrackable } = await import("@/lib/trackables/trackables");
  const { createGeofence } = await import("@/lib/geofences/geofences");
  const { ingestLocations } = await import("@/lib/locations/locations");
  const { EmbeddedRunner } = await import("@/lib/jobs/embedded-runner");
  const { workflows } = await import("@/lib/jobs/workflows");
  const { startReceiver } = await import("@/tests/support/receiver");

  const handle = await getDbHandle();
  const client = (handle.db as unknown as { $client: Queryable & { transaction: (cb: (tx: Queryable) => Promise<unknown>) => Promise<unknown> } }).$client;
  if (typeof (client as Partial<Queryable>).query === "function") {
    // Query counts and times with an in-process PGlite client only (postgres.js, which now reaches the embedded
    // database in its own process as it reaches Postgres, has no query method to wrap).
    wrap(client);
    const transaction = client.transaction.bind(client);
    client.transaction = (cb) => transaction((tx) => cb(wrap(tx)));
  }

  const receiver = await startReceiver({ secret: "profile-secret" });
  const arrivals = new Map<string, number>();
  receiver.setResponder((r) => {
    arrivals.set(r.json.beacon.id as string, performance.now());
    return { status: 200 };
  });
  const { key, accountId } = await provisionApiKey(handle.db, { account: "profile", plan: "enterprise" });
  const ctx = { account: { id: accountId, plan: "enterprise" as const }, db: handle.db };
  await createGeofence({ ctx, input: { name: "Zone", latitude: 0, longitude: 0, radius: 1000, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: "profile-secret" } as never });
  const ids: string[] = [];
  for (let i = 0; i < events * 2; i++) ids.push((await createTrackable({ ctx, input: { name: `t${i}`, type: "device", metadata: {} } as never })).id);

  const post = async (id: string) => {
    stage = "post";
    const verified = await verifyApiKey(handle.db, key);
    await apiLimiter().limit(`key:${verified!.keyId}`);
    await ingestLocations({ ctx, trackableId: id, inputs: [{ latitude: 0.001, longitude: 0.001 }] as never });
  };

  // 1. Queries per POST and per event in the runner, measured apart (the runner is not started yet).
  byStage.clear();
  byQuery.clear();
  const first = ids.slice(0, events);
  let t0 = performance.now();
  let cpu0 = process.cpuUsage();
  for (const id of first) await post(id);
  const postMs = performance.now() - t0;
  const postCpu = process.cpuUsage(cpu0);
  const runner = new EmbeddedRunner(handle.db, new Map(workflows.map((w) => [w.name, w])), { recoverAllOnStart: true, vacuumEveryMs: 10_000, slots: Number(process.env.SLOTS ?? 32) });
  stage = "runner";
  t0 = performance.now();
  cpu0 = process.cpuUsage();
  await runner.start();
  await receiver.waitFor(events, 120_000);
  const runnerMs = performance.now() - t0;
  const runnerCpu = process.cpuUsage(cpu0);
  const cpuMs = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1000 / events).toFixed(2);
  const s = (name: string) => byStage.get(name) ?? { count: 0, ms: 0 };
  console.log(`phase 1 (${events} posts, then the runner drains them):`);
  console.log(`  per POST:  ${(s("post").count / events).toFixed(1)} queries, ${(s("post").ms / events).toFixed(2)} ms in the DB, ${(postMs / events).toFixed(2)} ms wall, ${cpuMs(postCpu)} ms CPU`);
  console.log(`  per event in the runner: ${(s("runner").count / events).toFixed(1)} queries, ${(s("runner").ms / events).toFixed(2)} ms in the DB, ${(runnerMs / events).toFixed(2)} ms wall, ${cpuMs(runnerCpu)} ms CPU (drained at ${((events * 1000) / runnerMs).toFixed(0)}/s)`);
  const top = [...byQuery.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14);
  for (const [q, st] of top) console.log(`  ${String(st.count).padStart(6)} × ${(st.ms / st.count).toFixed(2).padStart(6)} ms  ${q}`);

  // 2. The same work at a steady rate with the runner on: latency from ingest returning to the receiver.
  byStage.clear();
  const second = ids.slice(events);
  const returned = new Map<string, number>();
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < second.length; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = second[i]!;
    pending.push(post(id).then(() => void returned.set(id, performance.now())));
  }
  await Promise.all(pending);
  const sendS = (performance.now() - started) / 1000;
  await receiver.waitFor(events * 2, 120_000);
  const lat = second.map((id) => arrivals.get(id)! - returned.get(id)!).sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!.toFixed(1);
  console.log(`phase 2 (${events} posts at ${(events / sendS).toFixed(1)}/s with the runner on): p50 ${q(0.5)} ms p95 ${q(0.95)} ms p99 ${q(0.99)} ms max ${lat.at(-1)!.toFixed(1)} ms`);
  console.log(`  DB busy ${((s("post").ms + s("runner").ms) / 10 / sendS).toFixed(0)} % of the time`);

  await runner.stop();
  await receiver.close();
  await handle.close();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
