// How long GET /api/health takes while ten 2,000-position polygons (~54 KB each) are created at once, then replaced
// at once, against the same server idle (the baseline, side by side): health is timed by a process of its own
// (tests/support/health-prober.ts), the app server's worst event-loop delay is read from its /metrics.
// Usage: npx tsx bench/health-burst.ts [rounds=5]; with DATABASE_URL, on that Postgres (else the embedded database).
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { startHealthProber, type HealthProbes } from "@/tests/support/health-prober";
import { healthChecks, sendAll, serverLoopDelayMaxMs, slowestBucket, tenPolygons } from "@/tests/support/polygon-burst";
import { benchNodeArgs, fmt, loadAverage, provisionKey } from "./lib";

const ROUNDS = Number(process.argv[2] ?? 5);

async function main() {
  buildIfStale();
  const app = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" }, nodeArgs: benchNodeArgs() });
  const prober = await startHealthProber(app.baseUrl);
  try {
    const key = await provisionKey(app, "burst", "enterprise");
    const geometries = tenPolygons();
    const creates = geometries.map((geometry, i) => ({ method: "POST", path: "/geofences", body: JSON.stringify({ name: `g${i}`, shape: "polygon", geometry }) }));
    console.log(`health during a burst of ten 2,000-position polygons (${app.databaseUrl ? "Postgres" : "embedded database"}), load ${loadAverage()}`);
    console.log("  round  phase     health worst ms  (prober's own delay)  server loop delay max ms  health's db check ≤ s  health answers");
    const line = (round: number, phase: string, p: HealthProbes, loop: number, check: number) =>
      console.log(
        `  ${String(round).padStart(5)}  ${phase.padEnd(8)}  ${fmt(p.worstMs, 1).padStart(15)}  ${`(${fmt(p.ownDelayMs, 1)})`.padStart(20)}  ${fmt(loop, 1).padStart(24)}  ${String(check).padStart(21)}  ${p.count}${p.failures.length ? ` failures ${p.failures.join(",")}` : ""}`,
      );
    const timed = async (work: () => Promise<Array<{ status: number; text: string }>>, expected: number) => {
      await serverLoopDelayMaxMs(app.baseUrl);
      const before = await healthChecks(app.baseUrl);
      await prober.start();
      const replies = await work();
      const probes = await prober.stop();
      const loop = await serverLoopDelayMaxMs(app.baseUrl);
      const check = slowestBucket(before, await healthChecks(app.baseUrl));
      for (const r of replies) if (r.status !== expected) throw new Error(`${r.status}: ${r.text.slice(0, 300)}`);
      return { replies, probes, loop, check };
    };
    // The routes' modules load on their first request: not part of a burst.
    const [warm] = await sendAll(app.baseUrl, key, [creates[0]!]);
    await sendAll(app.baseUrl, key, [{ method: "PATCH", path: `/geofences/${(JSON.parse(warm!.text) as { id: string }).id}`, body: JSON.stringify({ name: "warm" }) }]);
    for (let round = 1; round <= ROUNDS; round++) {
      const idle = await timed(async () => (await new Promise((r) => setTimeout(r, 1000)), []), 0);
      line(round, "idle", idle.probes, idle.loop, idle.check);
      const created = await timed(() => sendAll(app.baseUrl, key, creates), 201);
      line(round, "create", created.probes, created.loop, created.check);
      const ids = created.replies.map((r) => (JSON.parse(r.text) as { id: string }).id);
      const patches = ids.map((id, i) => ({ method: "PATCH", path: `/geofences/${id}`, body: JSON.stringify({ geometry: geometries[(i + 1) % 10] }) }));
      const replaced = await timed(() => sendAll(app.baseUrl, key, patches), 200);
      line(round, "replace", replaced.probes, replaced.loop, replaced.check);
    }
  } finally {
    prober.close();
    if (process.env.HB_TRACE) console.log(app.logs().split("\n").filter((l) => l.includes("[trace]")).join("\n"));
    await app.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
