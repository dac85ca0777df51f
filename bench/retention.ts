// Retention under load: a 1,000,000-row locations table on Postgres (10 trackables × 100,000 points, one every 3 s
// over the last ~3.5 days), and the API's latency (p50/p99 of GET …/locations?limit=100 and of a single POST) measured
// first with nothing else running, then while the retention job deletes everything older than one day (~710,000
// rows) in its bounded batches; the job's duration and rows a second beside them.
// Usage: npx tsx bench/retention.ts [pointsPerTrackable=100000] [baselineSeconds=15]
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { HISTORY_INSERT, fmt, loadAverage, provisionKey, scratchDatabase } from "./lib";

const perTrackable = Number(process.argv[2] ?? 100_000);
const baselineSeconds = Number(process.argv[3] ?? 15);
const TRACKABLES = 10;
const STEP_S = 3;

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? NaN;
};

async function main() {
  buildIfStale();
  const db = await scratchDatabase("fenceline_bench_retention");
  process.env.DATABASE_URL = db.url;
  const app = await startServer({ databaseUrl: db.url, env: { RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" } });
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { queryRows } = await import("@/lib/db/rows");
  const { applyRetention } = await import("@/lib/accounts/retention");
  try {
    const key = await provisionKey(app, "bench", "enterprise");
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const ids: string[] = [];
    for (let i = 0; i < TRACKABLES; i++) {
      const res = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers, body: JSON.stringify({ name: `t${i}` }) });
      ids.push(((await res.json()) as { id: string }).id);
    }
    const dbh = await getDb();
    const start = new Date(Date.now() - perTrackable * STEP_S * 1000).toISOString();
    const t0 = performance.now();
    // HISTORY_INSERT spaces points one second apart: load them so, then stretch the spacing to STEP_S seconds.
    await queryRows(dbh, HISTORY_INSERT, [ids, 1, perTrackable, start, "api"]);
    await queryRows(dbh, `update locations set timestamp = $1::timestamptz + (timestamp - $1::timestamptz) * ${STEP_S}`, [start]);
    await queryRows(dbh, "vacuum analyze locations", []);
    const [{ n: total } = { n: 0 }] = await queryRows<{ n: number }>(dbh, "select count(*)::int4 as n from locations", []);
    console.log(`retention bench: ${fmt(total)} locations loaded in ${fmt((performance.now() - t0) / 1000, 1)} s; load average ${loadAverage()}`);

    let n = 0;
    /** GETs and POSTs one after the other until `until()` says stop; their latencies in ms. */
    const drive = async (until: () => boolean) => {
      const get: number[] = [];
      const post: number[] = [];
      while (!until()) {
        const id = ids[n++ % ids.length]!;
        let s = performance.now();
        const g = await fetch(`${app.baseUrl}/api/v1/trackables/${id}/locations?limit=100`, { headers });
        await g.arrayBuffer();
        get.push(performance.now() - s);
        s = performance.now();
        const p = await fetch(`${app.baseUrl}/api/v1/trackables/${id}/locations`, { method: "POST", headers, body: JSON.stringify({ latitude: 52.5, longitude: 13.4 }) });
        await p.arrayBuffer();
        post.push(performance.now() - s);
        if (g.status !== 200 || p.status !== 201) throw new Error(`unexpected ${g.status}/${p.status}`);
      }
      return { get, post };
    };
    const line = (label: string, r: { get: number[]; post: number[] }) =>
      console.log(
        `  ${label.padEnd(28)} GET p50 ${fmt(pct(r.get, 0.5), 1)} ms  p99 ${fmt(pct(r.get, 0.99), 1)} ms   ` +
          `POST p50 ${fmt(pct(r.post, 0.5), 1)} ms  p99 ${fmt(pct(r.post, 0.99), 1)} ms   (${fmt(r.get.length)} pairs)`,
      );

    await drive(((end) => () => performance.now() > end)(performance.now() + 2000)); // warm-up
    const deadline = performance.now() + baselineSeconds * 1000;
    const without = await drive(() => performance.now() > deadline);

    const res = await fetch(`${app.baseUrl}/api/v1/account`, { method: "PATCH", headers, body: JSON.stringify({ retention: { locationDays: 1 } }) });
    if (res.status !== 200) throw new Error(`PATCH /account: ${res.status}`);
    let done = false;
    const jobStart = performance.now();
    const job = applyRetention({ db: dbh }).then((r) => {
      done = true;
      return r;
    });
    const during = await drive(() => done);
    const result = await job;
    const jobS = (performance.now() - jobStart) / 1000;
    const [{ n: left } = { n: 0 }] = await queryRows<{ n: number }>(dbh, "select count(*)::int4 as n from locations", []);

    line("without the retention job", without);
    line("with the retention job", during);
    console.log(
      `  retention job: ${fmt(result.locations)} locations deleted in ${fmt(jobS, 1)} s (${fmt(result.locations / jobS)} rows/s, ` +
        `batches of 5,000); ${fmt(left)} left; load average ${loadAverage()}`,
    );
  } finally {
    await closeDb();
    await app.stop();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
