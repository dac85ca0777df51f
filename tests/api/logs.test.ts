import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, request, useServer } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";

// Structured logs: one JSON object a line (LOG_FORMAT=json), a request id on every line of a request (echoed as
// X-Request-Id), and no secret the API hands out ever written to the log.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { LOG_FORMAT: "json", LOG_LEVEL: "info" } });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

const lines = () =>
  server
    .logs()
    .split("\n")
    .filter((l) => l.trim() !== "");

describe("logs", () => {
  it("are JSON lines, each request's carrying its id, which the response echoes", async () => {
    const a = await newAccount();
    const res = await request("GET", "/api/v1/trackables", { key: a.key, headers: { "X-Request-Id": "log-test-req-1" } });
    expect(res.headers.get("x-request-id")).toBe("log-test-req-1");
    const made = await request("GET", "/api/v1/trackables", { key: a.key, headers: { "X-Request-Id": "not an id <script>" } });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await request("GET", "/api/health")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    await new Promise((r) => setTimeout(r, 300));
    // Next.js prints a line of its own while it prepares; from the server's "listening" line on, every line is JSON.
    const all = lines();
    const from = all.findIndex((l) => l.includes("[fenceline] listening on"));
    expect(from).toBeGreaterThanOrEqual(0);
    const parsed = all.slice(from).map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
    for (const p of parsed) expect(typeof p.level === "number" && typeof p.msg === "string" && typeof p.time === "string", JSON.stringify(p)).toBe(true);
    const mine = parsed.filter((p) => p.requestId === "log-test-req-1");
    expect(mine).toContainEqual(expect.objectContaining({ msg: "request", method: "GET", route: "/api/v1/trackables", status: 200 }));
  });

  it("never contain a secret: API keys, webhook secrets, device tokens, share tokens", async () => {
    const secrets: string[] = [];
    const a = await newAccount();
    secrets.push(a.key, await a.newKey());
    const trackable = (await a.api("POST", "/trackables", { name: "Van" })).body;

    const device = await a.api("POST", `/trackables/${trackable.id}/device-tokens`, { name: "Phone" });
    expect(device.status).toBe(201);
    secrets.push(device.body.token);
    // The token in the query (as Overland and Traccar send it) and as Bearer; a wrong one too.
    await request("POST", `/ingest/overland?token=${device.body.token}`, { body: { locations: [] } });
    await request("POST", "/ingest/overland", { body: { locations: [] }, headers: { Authorization: `Bearer ${device.body.token}` } });
    await request("GET", `/ingest/traccar?id=${device.body.token}&lat=52.5&lon=13.4&timestamp=1795332000`);

    const webhookSecret = `log-test-secret-${randomBytes(12).toString("hex")}`;
    secrets.push(webhookSecret);
    const hook = await a.api("POST", "/webhooks", { url: "https://example.com/hooks/log-test", events: ["geofence.entry"], secret: webhookSecret });
    expect(hook.status).toBe(201);
    const rotated = await a.api("POST", `/webhooks/${hook.body.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.secret);
    // A secret refused in a body is not logged either.
    await a.api("POST", "/webhooks", { url: "not a url", events: ["nope"], secret: `${webhookSecret}-refused` });

    const link = await a.api("POST", "/share-links", { trackableId: trackable.id });
    const shareToken = new URL(link.body.url).pathname.split("/").pop()!;
    secrets.push(shareToken);
    await request("GET", `/share/${shareToken}`);
    await request("GET", `/api/public/share/${shareToken}`);

    // A wrong key, and a key in a query string (not how keys are sent, but clients do it).
    const wrong = `fl_${randomBytes(24).toString("hex")}`;
    secrets.push(wrong);
    await request("GET", "/api/v1/trackables", { key: wrong });
    await request("GET", `/api/v1/trackables?api_key=${a.key}`);

    await new Promise((r) => setTimeout(r, 500));
    const log = server.logs();
    expect(log).toContain('"route":"/ingest/overland"');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(log.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the log`).toBe(false);
    }
  });
});

describe("logs of a request handled by a Next.js route", () => {
  let other: TestServer;
  beforeAll(async () => {
    // A Redis that is not there: the route's rate limiter logs a warning while it handles the first keyed request.
    other = await startServer({ env: { LOG_FORMAT: "json", REDIS_URL: "redis://127.0.0.1:1" } });
  });
  afterAll(async () => other?.stop());

  it("carry that request's id too", async () => {
    useServer(other);
    try {
      const a = await newAccount();
      const res = await request("GET", "/api/v1/trackables", { key: a.key, headers: { "X-Request-Id": "log-test-in-route" } });
      expect(res.status).toBe(200);
    } finally {
      useServer(server);
    }
    await new Promise((r) => setTimeout(r, 300));
    const warned = other
      .logs()
      .split("\n")
      // The API key limiter's warning (the operator socket's own limiter warned first, outside any API request).
      .filter((l) => l.includes("[rate-limit] api:"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warned.length).toBeGreaterThan(0);
    expect(warned[0], other.logs().slice(-3000)).toMatchObject({ level: 40, requestId: "log-test-in-route" });
  });
});
