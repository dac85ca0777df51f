import { scratchPostgres } from "@/tests/support/scratch-db";

export const PG_BASE = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** A throwaway database on the bench Postgres, dropped by the returned function. */
export const scratchDatabase = (prefix: string) => scratchPostgres(PG_BASE, prefix);

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
}

/** Keeps `concurrency` requests in flight for `seconds`, each made by `send`; counts 2xx as done. */
export async function load(send: (i: number) => Promise<Response>, opts: { concurrency: number; seconds: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  let requests = 0;
  let errors = 0;
  let i = 0;
  const end = performance.now() + opts.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const res = await send(i++);
          await res.arrayBuffer();
          if (res.ok) requests++;
          else errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests, errors, seconds, perSecond: requests / seconds, p50: q(0.5), p95: q(0.95) };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function point(i: number) {
  return { latitude: 52.5 + (i % 1000) / 10000, longitude: 13.4 + (i % 777) / 10000, accuracy: 5, battery: 80 };
}

/** A new API key on a bench server, through its operator endpoint (what `npm run apikey:create` calls). */
export async function provisionKey(app: { baseUrl: string; adminToken: string }, account: string, plan: "free" | "enterprise"): Promise<string> {
  const res = await fetch(`${app.baseUrl}/api/internal/api-keys`, {
    method: "POST",
    headers: { Authorization: `Bearer ${app.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ account, plan }),
  });
  if (!res.ok) throw new Error(`provisioning failed: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}
