// What one request costs the server, by thread, when it arrives to an idle process (paced at 50/s) and when it comes
// with others (bursts of eight, back to back): a single-point location post to an account without fences (evaluation
// included) and GET /api/health. CPU from /proc/<pid>/task/*/stat (user and system, main thread and the others: V8's
// GC and compiler threads, libuv's pool), per request, beside the server idling for as long.
// Usage: npx tsx bench/request-cost.ts [requests=500]; with DATABASE_URL, on that Postgres.
import fs from "node:fs";
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { CLOCK_TICK_MS, fmt, provisionKey, statFields } from "./lib";

const N = Number(process.argv[2] ?? 500);

type Times = { main: { u: number; s: number }; other: { u: number; s: number } };

function threadTimes(pid: number): Times {
  const times: Times = { main: { u: 0, s: 0 }, other: { u: 0, s: 0 } };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    if (!fields) continue; // a thread that ended meanwhile
    const t = tid === String(pid) ? times.main : times.other;
    t.u += Number(fields[11]) * CLOCK_TICK_MS;
    t.s += Number(fields[12]) * CLOCK_TICK_MS;
  }
  return times;
}

function perRequest(a: Times, b: Times): string {
  const f = (x: number) => fmt(x / N, 2);
  const mu = b.main.u - a.main.u, ms = b.main.s - a.main.s, ou = b.other.u - a.other.u, os = b.other.s - a.other.s;
  return `${f(mu + ms + ou + os)} ms (main thread ${f(mu)} user + ${f(ms)} system; other threads ${f(ou)} + ${f(os)})`;
}

async function main() {
  buildIfStale();
  const app = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" } });
  const pid = app.process.pid!;
  try {
    const key = await provisionKey(app, "cost", "enterprise");
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const created = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers, body: JSON.stringify({ name: "t" }) });
    const { id } = (await created.json()) as { id: string };
    const post = () =>
      fetch(`${app.baseUrl}/api/v1/trackables/${id}/locations`, { method: "POST", headers, body: JSON.stringify({ latitude: 1, longitude: 1 }) }).then((r) =>
        r.arrayBuffer(),
      );
    const health = () => fetch(`${app.baseUrl}/api/health`).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 2000));
    console.log(`request cost bench: ${fmt(N)} requests per row, server CPU per request (${process.env.DATABASE_URL ? "Postgres" : "PGlite"})`);
    for (const [label, send] of [
      ["location post, no fences", post],
      ["GET /api/health", health],
    ] as const) {
      for (const mode of ["idle", "paced 50/s", "bursts of 8"] as const) {
        const before = threadTimes(pid);
        const started = performance.now();
        if (mode === "idle") await new Promise((r) => setTimeout(r, (N * 1000) / 50));
        else if (mode === "paced 50/s") {
          for (let i = 0; i < N; i++) {
            const wait = started + i * 20 - performance.now();
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
            await send();
          }
        } else for (let i = 0; i < N; i += 8) await Promise.all(Array.from({ length: Math.min(8, N - i) }, send));
        // The evaluations the posts queued end within the linger and a round.
        await new Promise((r) => setTimeout(r, 300));
        console.log(`  ${label.padEnd(26)} ${mode.padEnd(12)} ${perRequest(before, threadTimes(pid))}`);
      }
    }
  } finally {
    await app.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
