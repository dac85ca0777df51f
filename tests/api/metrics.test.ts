import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { parsePrometheus, total, type Sample } from "../support/prometheus";

// GET /metrics: the Prometheus text format, served by the app server before Next.js, to loopback clients (the address
// as TRUST_PROXY determines it) unless METRICS_TOKEN is set, then to whoever presents it.
const scrape = (server: TestServer, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}/metrics`, { headers });

async function samples(server: TestServer): Promise<Sample[]> {
  const res = await scrape(server);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

async function until(server: TestServer, what: string, ok: (s: Sample[]) => boolean): Promise<Sample[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = await samples(server);
    if (ok(s)) return s;
    if (Date.now() > deadline) throw new Error(`metrics never showed ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("GET /metrics without METRICS_TOKEN (behind one proxy)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: "1" } });
    useServer(server);
  });
  afterAll(async () => {
    useServer(null);
    await server?.stop();
  });

  it("answers a loopback client and refuses one the proxy forwarded from elsewhere", async () => {
    expect((await scrape(server)).status).toBe(200);
    const forwarded = await scrape(server, { "X-Forwarded-For": "203.0.113.9" });
    expect(forwarded.status).toBe(403);
    expect(await forwarded.text()).not.toContain("fenceline_");
    // A client cannot pose as loopback: the proxy appends the address it saw (the right-most entry is trusted).
    expect((await scrape(server, { "X-Forwarded-For": "127.0.0.1, 203.0.113.9" })).status).toBe(403);
  });

  it("counts requests by route pattern and status, points by source, rounds, events, and the process", async () => {
    const a = await newAccount();
    const trackable = (await a.api("POST", "/trackables", { name: "Van" })).body;
    await a.api("POST", "/geofences", { name: "Depot", latitude: 52.52, longitude: 13.405, radius: 200 });
    const posted = await a.api("POST", `/trackables/${trackable.id}/locations`, {
      locations: [
        { latitude: 52.6, longitude: 13.405, timestamp: "2026-11-22T08:00:00.000Z" },
        { latitude: 52.52, longitude: 13.405, timestamp: "2026-11-22T08:01:00.000Z" },
      ],
    });
    expect(posted.status).toBe(201);
    expect((await a.api("GET", `/trackables/${trackable.id}`)).status).toBe(200);
    expect((await a.api("GET", `/trackables/00000000-0000-4000-8000-000000000000`)).status).toBe(404);

    const s = await until(server, "an evaluation round and an event", (s) =>
      total(s, "fenceline_evaluation_round_duration_seconds_count", { outcome: "ok" }) > 0 && total(s, "fenceline_events_total") > 0,
    );
    const byRoute = { name: "fenceline_http_requests_total", route: "/api/v1/trackables/[trackableId]", method: "GET" };
    expect(total(s, byRoute.name, { route: byRoute.route, method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(total(s, byRoute.name, { route: byRoute.route, method: "GET", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(total(s, byRoute.name, { route: "/api/v1/trackables/[trackableId]/locations", method: "POST", status: "201" })).toBeGreaterThanOrEqual(1);
    // Never a raw path: no label carries an id.
    expect(s.filter((x) => x.name === byRoute.name && /[0-9a-f]{8}-[0-9a-f]{4}/.test(x.labels.route ?? ""))).toEqual([]);
    expect(total(s, "fenceline_points_stored_total", { source: "api" })).toBeGreaterThanOrEqual(2);
    expect(total(s, "fenceline_events_total", { type: "geofence.entry" })).toBeGreaterThanOrEqual(1);
    expect(total(s, "fenceline_db_pool_max_connections")).toBeGreaterThanOrEqual(1);
    expect(s.some((x) => x.name === "process_cpu_user_seconds_total")).toBe(true);
    expect(s.some((x) => x.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });

  it("declares the jobs and delivery series (their values are tested in lib/metrics/scrape.test.ts)", async () => {
    const text = await (await scrape(server)).text();
    for (const line of [
      "# TYPE fenceline_jobs_queued gauge",
      "# TYPE fenceline_jobs_oldest_queued_age_seconds gauge",
      "# TYPE fenceline_webhook_delivery_attempts_total counter",
      "# TYPE fenceline_notification_deliveries_total counter",
    ])
      expect(text).toContain(line);
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  const token = "metrics-token-for-the-test";
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => server?.stop());

  it("needs the token as Bearer, from loopback too", async () => {
    const none = await scrape(server);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape(server, { Authorization: "Bearer not-the-token" })).status).toBe(401);
    const ok = await scrape(server, { Authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(parsePrometheus(await ok.text()).some((x) => x.name === "fenceline_http_requests_total")).toBe(true);
  });
});
