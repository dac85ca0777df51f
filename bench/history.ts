// History reads: the time for a 1,000-point page of GET /trackables/{id}/locations with 1,000,000 points stored, on
// `next start` over Postgres; beside it, the same keyset query run directly with postgres.js (the floor).
// Usage: npx tsx bench/history.ts [points=1000000]
import postgres from "postgres";
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { HISTORY_INSERT, fmt, scratchDatabase, provisionKey } from "./lib";

const total = Number(process.argv[2] ?? 1_000_000);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length * 0.5)]!, p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! };
};

async function main() {
  buildIfStale();
  const db = await scratchDatabase("fenceline_bench_history");
  const app = await startServer({ databaseUrl: db.url, env: { RATE_LIMIT_PER_MINUTE: "1000000000" } });
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  try {
    const key = await provisionKey(app, "bench", "free");
    const headers = { Authorization: `Bearer ${key}` };
    const t = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ name: "history" }) });
    const trackableId = ((await t.json()) as { id: string }).id;
    // A second trackable with as many points, so the index holds other trackables' rows too.
    const other = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ name: "other" }) });
    const otherId = ((await other.json()) as { id: string }).id;

    const t0 = performance.now();
    await sql.unsafe(HISTORY_INSERT, [[trackableId, otherId], 1, total, "2026-01-01T00:00:00Z", "api"]);
    await sql`analyze locations`;
    console.log(`history bench: ${fmt(total)} points for the trackable (+${fmt(total)} for another) loaded in ${fmt((performance.now() - t0) / 1000, 1)} s`);

    const runs = 30;
    const timeApi = async (label: string, query: string) => {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < runs + 3; i++) {
        const s = performance.now();
        const res = await fetch(`${app.baseUrl}/api/v1/trackables/${trackableId}/locations?${query}`, { headers });
        const body = (await res.json()) as { data: unknown[] };
        if (i >= 3) times.push(performance.now() - s);
        count = body.data.length;
      }
      const { p50, p95 } = stats(times);
      console.log(`  API  ${label.padEnd(44)} ${count} points  p50 ${fmt(p50, 1)} ms  p95 ${fmt(p95, 1)} ms`);
    };
    const timeSql = async (label: string, run: () => PromiseLike<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < runs + 3; i++) {
        const s = performance.now();
        await run();
        if (i >= 3) times.push(performance.now() - s);
      }
      const { p50, p95 } = stats(times);
      console.log(`  SQL  ${label.padEnd(44)}              p50 ${fmt(p50, 1)} ms  p95 ${fmt(p95, 1)} ms`);
    };
    await timeApi("newest 1,000 (no parameters, limit=1000)", "limit=1000");
    await timeSql("newest 1,000 (the same keyset query)", () =>
      sql`select * from locations where trackable_id = ${trackableId} order by timestamp desc, id desc limit 1001`,
    );
    const mid = new Date(Date.parse("2026-01-01T00:00:00Z") + (total / 2) * 1000).toISOString();
    const midEnd = new Date(Date.parse(mid) + 3_600_000).toISOString();
    await timeApi("1,000 from the middle (from/to, order=asc)", `limit=1000&order=asc&from=${mid}&to=${midEnd}`);
    await timeSql("1,000 from the middle (from/to, asc)", () =>
      sql`select * from locations where trackable_id = ${trackableId} and timestamp >= ${mid} and timestamp <= ${midEnd} order by timestamp asc, id asc limit 1001`,
    );
    // Page 500 of 1,000: follow nextCursor through the API once, then time that deep page.
    let cursor: string | null = null;
    for (let i = 0; i < 500; i++) {
      const res: Response = await fetch(`${app.baseUrl}/api/v1/trackables/${trackableId}/locations?limit=1000${cursor ? `&cursor=${cursor}` : ""}`, { headers });
      cursor = ((await res.json()) as { nextCursor: string | null }).nextCursor;
    }
    await timeApi("page 501 via cursor (deep page)", `limit=1000&cursor=${cursor}`);
    const plan = await sql.unsafe(
      `explain select * from locations where trackable_id = '${trackableId}' order by timestamp desc, id desc limit 1001`,
    );
    console.log(`  plan: ${plan.map((r) => Object.values(r)[0]).join(" / ")}`);
  } finally {
    await sql.end();
    await app.stop();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
