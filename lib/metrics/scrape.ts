import { timingSafeEqual, createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import ipaddr from "ipaddr.js";
import { sql } from "drizzle-orm";
import { getDbHandle } from "@/lib/db/client";
import { executeRows } from "@/lib/db/rows";
import { metrics } from "./registry";

/** Who may read /metrics: with a token, whoever presents it as Bearer; without, loopback clients only. */
export function metricsAccess(authorization: string | undefined, clientIp: string, token: string | undefined): 200 | 401 | 403 {
  if (token) {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
    if (!presented) return 401;
    // Compared as hashes: equal lengths, and no timing to learn the token from.
    const digest = (s: string) => createHash("sha256").update(s).digest();
    return timingSafeEqual(digest(presented), digest(token)) ? 200 : 401;
  }
  return isLoopback(clientIp) ? 200 : 403;
}

export function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().range() === "loopback";
  return parsed.range() === "loopback";
}

/** Reads what lives in the database (queued jobs, connections) into the gauges: once per scrape. */
export async function collectDatabase(): Promise<void> {
  const m = metrics();
  const handle = await getDbHandle();
  m.dbPoolMax.reset();
  m.dbPoolMax.set({ kind: handle.kind }, handle.kind === "postgres" ? 10 : 1);
  const jobs = await executeRows<{ name: string; queued: number; oldest: number | null }>(handle.db, sql`
    select name, count(*)::int as queued, extract(epoch from now() - min(run_at))::float8 as oldest
    from jobs where status = 'queued' and run_at <= now() group by name`);
  m.jobsQueued.reset();
  m.jobsOldestAge.reset();
  for (const row of jobs) {
    m.jobsQueued.set({ workflow: row.name }, Number(row.queued));
    m.jobsOldestAge.set({ workflow: row.name }, Math.max(0, Number(row.oldest ?? 0)));
  }
  const connections = await executeRows<{ state: string | null; n: number }>(handle.db, sql`
    select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
    where datname = current_database() and backend_type = 'client backend' group by 1`);
  m.dbConnections.reset();
  for (const row of connections) m.dbConnections.set({ state: row.state ?? "unknown" }, Number(row.n));
}

/** GET /metrics: the Prometheus text format, behind METRICS_TOKEN or loopback (see metricsAccess). */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse, opts: { clientIp: string; token: string | undefined }): Promise<void> {
  res.setHeader("Cache-Control", "no-store");
  const access = metricsAccess(req.headers.authorization, opts.clientIp, opts.token);
  if (access !== 200 || (req.method !== "GET" && req.method !== "HEAD")) {
    res.statusCode = access !== 200 ? access : 405;
    if (access === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    if (access === 200) res.setHeader("Allow", "GET, HEAD");
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(
      access === 401
        ? "Unauthorized: send Authorization: Bearer <METRICS_TOKEN>.\n"
        : access === 403
          ? "Forbidden: /metrics answers loopback clients only unless METRICS_TOKEN is set.\n"
          : "Method not allowed: GET /metrics.\n",
    );
    return;
  }
  try {
    await collectDatabase();
  } catch {
    // The process's own metrics are still worth a scrape when the database is down (its gauges keep their last value).
  }
  const { register } = metrics();
  const body = await register.metrics();
  res.statusCode = 200;
  res.setHeader("Content-Type", register.contentType);
  res.end(req.method === "HEAD" ? undefined : body);
}
