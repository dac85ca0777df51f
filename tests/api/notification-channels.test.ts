import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";
import { startServer, type TestServer } from "../harness/server";
import { startCapture } from "../support/capture";
import { startSmtpCapture } from "../support/smtp";

const NTFY = { name: "Phones", type: "ntfy", config: { topic: "fleet-alerts", token: "tk_VERY_SECRET" } };
const channelOf = async (o: TestAccount) => (await o.api("POST", "/notification-channels", NTFY)).body.id as string;

// The suite's shared server: no SMTP_URL, the outbound rules in force.
securitySuite("GET /notification-channels", { method: "GET", path: () => "/notification-channels" }, { tenancy: false });
securitySuite("GET /notification-channels/{id}", { method: "GET", path: async (o) => `/notification-channels/${await channelOf(o)}` });
securitySuite("PATCH /notification-channels/{id}", { method: "PATCH", path: async (o) => `/notification-channels/${await channelOf(o)}`, body: { enabled: false } });
securitySuite("DELETE /notification-channels/{id}", { method: "DELETE", path: async (o) => `/notification-channels/${await channelOf(o)}` });
securitySuite("POST /notification-channels/{id}/test", { method: "POST", path: async (o) => `/notification-channels/${await channelOf(o)}/test` });

describe("notification channels on the shared server", () => {
  it("creates, reads back without secrets, merges a PATCH, lists newest first in pages, deletes; on the free plan too", async () => {
    const a = await newAccount({ plan: "free" });
    const created = await a.api("POST", "/notification-channels", NTFY);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Phones", type: "ntfy", enabled: true, config: { serverUrl: "https://ntfy.sh", topic: "fleet-alerts", tokenSet: true } });
    expect(created.text).not.toContain("VERY_SECRET");
    const id = created.body.id as string;

    // The token is kept when left out, and removed with null.
    const renamed = await a.api("PATCH", `/notification-channels/${id}`, { name: "Night shift", config: { topic: "night" } });
    expect(renamed.body).toMatchObject({ name: "Night shift", config: { topic: "night", tokenSet: true } });
    const tokenless = await a.api("PATCH", `/notification-channels/${id}`, { config: { token: null } });
    expect(tokenless.body.config).toEqual({ serverUrl: "https://ntfy.sh", topic: "night", tokenSet: false });

    const discord = await a.api("POST", "/notification-channels", { name: "Ops", type: "discord", config: { webhookUrl: "https://discord.com/api/webhooks/1/SECRET_PATH" } });
    expect(discord.body.config).toEqual({ webhookOrigin: "https://discord.com", webhookUrlSet: true });
    expect(discord.text).not.toContain("SECRET_PATH");

    const first = await a.api("GET", "/notification-channels?limit=1");
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([discord.body.id]);
    const second = await a.api("GET", `/notification-channels?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ data: [{ id }], nextCursor: null });
    expect((await a.api("GET", `/notification-channels/${id}`)).body.name).toBe("Night shift");

    expect((await a.api("DELETE", `/notification-channels/${id}`)).status).toBe(204);
    expect((await a.api("GET", `/notification-channels/${id}`)).status).toBe(404);
  });

  it("refuses an e-mail channel without SMTP_URL, saying so", async () => {
    const a = await newAccount();
    const res = await a.api("POST", "/notification-channels", { name: "Mail", type: "email", config: { to: ["ops@example.com"] } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/SMTP_URL/);
  });

  it("validates type, config and URLs, naming each field", async () => {
    const a = await newAccount();
    const cases: Array<[unknown, RegExp]> = [
      [{ name: "x", type: "pager", config: {} }, /type/],
      [{ name: "x", type: "ntfy", config: {} }, /config\.topic/],
      [{ name: "x", type: "ntfy", config: { topic: "t", serverUrl: "http://ntfy.example.com" } }, /config\.serverUrl: must use https/],
      [{ name: "x", type: "gotify", config: { serverUrl: "https://10.0.0.5", appToken: "a" } }, /config\.serverUrl: must not point to a non-public address/],
      [{ name: "x", type: "slack", config: { webhookUrl: "https://localhost/services/x" } }, /config\.webhookUrl/],
      [{ name: "x", type: "telegram", config: { botToken: "nope", chatId: "1" } }, /config\.botToken/],
      [{ name: "", type: "discord", config: { webhookUrl: "https://discord.com/api/webhooks/1/x" } }, /name/],
      [{ name: "x", type: "ntfy", config: { topic: "t", extra: 1 } }, /config\.extra/],
    ];
    for (const [body, message] of cases) {
      const res = await a.api("POST", "/notification-channels", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    const id = await channelOf(a);
    const bad = await a.api("PATCH", `/notification-channels/${id}`, { config: { serverUrl: "https://127.0.0.1" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/config\.serverUrl/);
  });
});

describe("notification channels on a server with SMTP and private targets allowed", () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let receiver: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    receiver = await startCapture((req) => (req.url.includes("refuse") ? { status: 403, body: "no" } : { status: 200, body: "ok" }));
    server = await startServer({ env: { SMTP_URL: smtp.url, SMTP_FROM: "Fenceline <alerts@example.com>", WEBHOOK_ALLOW_PRIVATE_URLS: "true" } });
    useServer(server);
  });
  afterAll(async () => {
    useServer(null);
    await server?.stop();
    await receiver?.close();
    await smtp?.close();
  });

  it("sends a test message through each kind of channel and reports how it went", async () => {
    const a = await newAccount();
    const create = async (type: string, config: Record<string, unknown>) =>
      (await a.api("POST", "/notification-channels", { name: `My ${type}`, type, config })).body.id as string;

    const ntfy = await create("ntfy", { serverUrl: receiver.url, topic: "alerts", token: "tk_1" });
    expect((await a.api("POST", `/notification-channels/${ntfy}/test`)).body).toEqual({ delivered: true, statusCode: 200, error: null });
    const sent = receiver.requests.at(-1)!;
    expect(sent).toMatchObject({ method: "POST", url: "/alerts", headers: { title: "Test notification from Fenceline", tags: "test", authorization: "Bearer tk_1" } });
    expect(sent.headers.click).toBe(`${server.baseUrl}/trackables`);

    const slack = await create("slack", { webhookUrl: `${receiver.url}/services/refuse` });
    expect((await a.api("POST", `/notification-channels/${slack}/test`)).body).toEqual({ delivered: false, statusCode: 403, error: "HTTP 403" });

    const mail = await create("email", { to: ["ops@example.com"] });
    expect((await a.api("POST", `/notification-channels/${mail}/test`)).body).toEqual({ delivered: true, statusCode: null, error: null });
    const received = await smtp.next();
    expect(received.envelope.to).toEqual(["ops@example.com"]);
    expect(received.parsed.subject).toBe("Test notification from Fenceline");
    expect(received.parsed.text).toContain('The channel "My email" works');

    // Another account's channel is not there.
    const b = await newAccount();
    expect((await b.api("POST", `/notification-channels/${ntfy}/test`)).status).toBe(404);
  });
});
