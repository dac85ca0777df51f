import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";
import { startServer, type TestServer } from "../harness/server";
import { startCapture, type CaptureAnswer, type Captured } from "../support/capture";

// Notification rules and their deliveries, end to end: real evaluations of posted locations, real capture servers
// standing in for ntfy, the embedded runner sending with short retry delays.

const NTFY = { name: "Phones", type: "ntfy", config: { topic: "fleet-alerts" } };
const CENTER = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { latitude: 52.5201, longitude: 13.4051 };
const OUTSIDE = { latitude: 52.53, longitude: 13.405 };

async function owned(o: TestAccount) {
  const channel = (await o.api("POST", "/notification-channels", NTFY)).body.id as string;
  return { channel, rule: (await o.api("POST", "/notification-rules", { name: "Arrivals", eventTypes: ["geofence.entry"], channelIds: [channel] })).body.id as string };
}

securitySuite("GET /notification-rules", { method: "GET", path: () => "/notification-rules" }, { tenancy: false });
securitySuite("GET /notification-rules/{id}", { method: "GET", path: async (o) => `/notification-rules/${(await owned(o)).rule}` });
securitySuite("PATCH /notification-rules/{id}", { method: "PATCH", path: async (o) => `/notification-rules/${(await owned(o)).rule}`, body: { enabled: false } });
securitySuite("DELETE /notification-rules/{id}", { method: "DELETE", path: async (o) => `/notification-rules/${(await owned(o)).rule}` });
securitySuite("GET /notification-deliveries", { method: "GET", path: () => "/notification-deliveries" }, { tenancy: false });

describe("notification rules on the shared server", () => {
  it("creates with defaults, reads, merges a PATCH, lists newest first in pages, deletes; on the free plan too", async () => {
    const a = await newAccount({ plan: "free" });
    const { channel } = await owned(a);
    const created = await a.api("POST", "/notification-rules", { name: "Depot", eventTypes: ["geofence.entry", "geofence.exit"], channelIds: [channel] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: "Depot",
      enabled: true,
      eventTypes: ["geofence.entry", "geofence.exit"],
      trackableIds: null,
      geofenceIds: null,
      channelIds: [channel],
      schedule: null,
      cooldownSeconds: 0,
      maxEventAgeSeconds: 900,
      template: null,
    });
    const id = created.body.id as string;
    const schedule = { timeZone: "Europe/Berlin", days: ["mon", "fri"], from: "22:00", to: "06:00" };
    const patched = await a.api("PATCH", `/notification-rules/${id}`, { schedule, cooldownSeconds: 60, template: { title: "{{trackable.name}} @ {{geofence.name}}" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: "Depot", schedule, cooldownSeconds: 60, template: { title: "{{trackable.name}} @ {{geofence.name}}" } });

    const first = await a.api("GET", "/notification-rules?limit=1");
    expect(first.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    const second = await a.api("GET", `/notification-rules?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.nextCursor).toBeNull();
    expect(second.body.data).toHaveLength(1);

    expect((await a.api("DELETE", `/notification-rules/${id}`)).status).toBe(204);
    expect((await a.api("GET", `/notification-rules/${id}`)).status).toBe(404);
  });

  it("validates types, ids, the zone, the schedule and the template, naming each field", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const { channel } = await owned(a);
    const theirs = await owned(b);
    const trackable = (await a.api("POST", "/trackables", { name: "Van" })).body.id as string;
    const base = { name: "x", eventTypes: ["geofence.entry"], channelIds: [channel] };
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, eventTypes: ["geofence.teleport"] }, /eventTypes\[0\]/],
      [{ ...base, eventTypes: ["location.updated"] }, /eventTypes\[0\]/],
      [{ ...base, eventTypes: [] }, /eventTypes: must list at least one/],
      [{ ...base, channelIds: [] }, /channelIds: must list at least one/],
      [{ ...base, channelIds: [theirs.channel] }, new RegExp(`channelIds: not found in this account: ${theirs.channel}`)],
      [{ ...base, trackableIds: [trackable, "00000000-0000-4000-8000-000000000000"] }, /trackableIds: not found in this account: 00000000-0000-4000-8000-000000000000/],
      [{ ...base, schedule: { timeZone: "Mars/Olympus", days: ["mon"], from: "08:00", to: "18:00" } }, /schedule\.timeZone: must be an IANA time zone/],
      [{ ...base, schedule: { timeZone: "UTC", days: ["someday"], from: "08:00", to: "18:00" } }, /schedule\.days\[0\]/],
      [{ ...base, schedule: { timeZone: "UTC", days: ["mon"], from: "8:00", to: "24:00" } }, /schedule\.from: must be HH:MM.*schedule\.to: must be HH:MM/],
      [{ ...base, template: { title: "{{trackable.name}} {{driver.name}}" } }, /template\.title: unknown placeholder \{\{driver\.name\}\}/],
      [{ ...base, cooldownSeconds: -1 }, /cooldownSeconds/],
      [{ ...base, colour: "red" }, /colour/],
    ];
    for (const [body, message] of cases) {
      const res = await a.api("POST", "/notification-rules", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    // Another account's rule is not there.
    expect((await a.api("PATCH", `/notification-rules/${theirs.rule}`, { enabled: false })).status).toBe(404);
  });

  it("a deleted channel leaves the rules that listed it", async () => {
    const a = await newAccount();
    const { channel, rule } = await owned(a);
    const other = (await a.api("POST", "/notification-channels", { ...NTFY, name: "Other" })).body.id as string;
    await a.api("PATCH", `/notification-rules/${rule}`, { channelIds: [channel, other] });
    expect((await a.api("DELETE", `/notification-channels/${channel}`)).status).toBe(204);
    expect((await a.api("GET", `/notification-rules/${rule}`)).body.channelIds).toEqual([other]);
  });
});

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe("deliveries, on a server with short retry delays and private targets allowed", () => {
  let server: TestServer;
  // One capture server; each test's topic gets its own answers.
  const answers = new Map<string, (req: Captured, n: number) => CaptureAnswer>();
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    capture = await startCapture((req) => {
      const topic = req.url.slice(1);
      const n = capture.requests.filter((r) => r.url === req.url).length;
      return answers.get(topic)?.(req, n) ?? { status: 200, body: "ok" };
    });
    server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_DELAYS: "400,400,400", WEBHOOK_TIMEOUT_MS: "2000" } });
    useServer(server);
  });
  afterAll(async () => {
    useServer(null);
    await server?.stop();
    await capture?.close();
  });

  let topics = 0;
  async function channelOf(a: TestAccount, answer?: (req: Captured, n: number) => CaptureAnswer) {
    const topic = `t${Date.now()}x${topics++}`;
    if (answer) answers.set(topic, answer);
    const channel = (await a.api("POST", "/notification-channels", { name: "Phone", type: "ntfy", config: { serverUrl: capture.url, topic } })).body.id as string;
    return { topic, channel, received: () => capture.requests.filter((r) => r.url === `/${topic}`) };
  }
  async function setup(a: TestAccount, answer?: (req: Captured, n: number) => CaptureAnswer) {
    const { topic, channel } = await channelOf(a, answer);
    const trackable = (await a.api("POST", "/trackables", { name: "Van 12", type: "vehicle" })).body;
    const depot = (await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200 })).body;
    return { topic, channel, trackable, depot, received: () => capture.requests.filter((r) => r.url === `/${topic}`) };
  }
  const rule = async (a: TestAccount, body: Record<string, unknown>) => {
    const res = await a.api("POST", "/notification-rules", { name: "Rule", eventTypes: ["geofence.entry"], ...body });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const post = async (a: TestAccount, trackableId: string, points: Array<Record<string, unknown>>) => {
    const res = await a.api("POST", `/trackables/${trackableId}/locations`, { locations: points });
    expect(res.status, res.text).toBe(201);
  };
  const log = async (a: TestAccount, query = "") => (await a.api("GET", `/notification-deliveries?${query}`)).body.data as any[];
  const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

  it("a geofence entry reaches ntfy once per channel with the title and body in the rule's zone", async () => {
    const a = await newAccount({ plan: "free" });
    const s = await setup(a);
    const second = await channelOf(a);
    const r1 = await rule(a, { channelIds: [s.channel], schedule: { timeZone: "Europe/Berlin", days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], from: "00:00", to: "00:00" } });
    // A second rule routing the same event to the same channel (and to another one) does not double the message.
    await rule(a, { channelIds: [s.channel, second.channel], trackableIds: [s.trackable.id] });
    const entered = at(2000);
    await post(a, s.trackable.id, [
      { ...OUTSIDE, timestamp: at(3000) },
      { ...INSIDE, timestamp: entered },
    ]);
    const [got] = await until("the ntfy message", async () => (s.received().length ? s.received() : null));
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(entered));
    expect(got!.headers.title).toBe("Van 12 entered Depot");
    expect(got!.headers.tags).toBe("geofence.entry");
    expect(got!.headers.click).toBe(`${server.baseUrl}/trackables/${s.trackable.id}`);
    expect(got!.body).toBe(`at ${local} (Europe/Berlin) · 52.52010, 13.40510 · ${server.baseUrl}/trackables/${s.trackable.id}`);
    await until("the other channel's message", async () => second.received().length === 1);

    const sent = await until("the log says sent", async () => {
      const rows = await log(a, `ruleId=${r1}`);
      return rows.length === 1 && rows[0].status === "sent" ? rows : null;
    });
    expect(sent[0]).toMatchObject({ channelId: s.channel, eventType: "geofence.entry", reason: null, title: "Van 12 entered Depot", attempts: [{ statusCode: 200, error: null }] });
    // Nothing more arrives: one message per event and channel.
    await new Promise((r) => setTimeout(r, 1500));
    expect(s.received()).toHaveLength(1);
    expect(second.received()).toHaveLength(1);
    expect(await log(a, `channelId=${s.channel}`)).toHaveLength(1);
    expect(await log(a, `channelId=${second.channel}`)).toHaveLength(1);
    expect(await log(a, `eventId=${sent[0].eventId}`)).toHaveLength(2);

    // Another account sees none of it.
    const b = await newAccount();
    expect(await log(b)).toEqual([]);
  });

  it("suppresses with reason schedule, stale and cooldown, and sends nothing for them", async () => {
    const a = await newAccount();
    const s = await setup(a);
    const never = await rule(a, { channelIds: [s.channel], schedule: { timeZone: "Pacific/Auckland", days: [], from: "00:00", to: "00:00" } });
    const strict = await rule(a, { channelIds: [s.channel], maxEventAgeSeconds: 60, eventTypes: ["geofence.exit"] });
    const cooling = await rule(a, { channelIds: [s.channel], cooldownSeconds: 3600, template: { title: "{{trackable.name}} is back at {{geofence.name}}" } });
    await post(a, s.trackable.id, [
      { ...OUTSIDE, timestamp: at(600_000) },
      { ...INSIDE, timestamp: at(500_000) },
      // An exit 400 s ago: older than the strict rule's 60 s.
      { ...OUTSIDE, timestamp: at(400_000) },
      { ...INSIDE, timestamp: at(5000) },
    ]);
    const rows = await until("five log entries", async () => {
      const all = await log(a);
      return all.length >= 5 ? all : null;
    });
    const of = (ruleId: string) => rows.filter((r) => r.ruleId === ruleId).map((r) => `${r.status}/${r.reason}`);
    expect(of(never)).toEqual(["suppressed/schedule", "suppressed/schedule"]);
    expect(of(strict)).toEqual(["suppressed/stale"]);
    // The first entry (500 s ago) is sent; the second, within the hour, is cooling down.
    const cooled = await until("the cooling rule's first entry sent", async () => {
      const mine = (await log(a, `ruleId=${cooling}`)).map((r) => `${r.status}/${r.reason}`).sort();
      return mine.join() === "sent/null,suppressed/cooldown" ? mine : null;
    });
    expect(cooled).toEqual(["sent/null", "suppressed/cooldown"]);
    expect((await log(a, "status=suppressed")).length).toBe(4);
    await new Promise((r) => setTimeout(r, 1000));
    expect(s.received().map((r) => r.headers.title)).toEqual(["Van 12 is back at Depot"]);
  });

  it("retries after a 429 no sooner than its Retry-After, then sends", async () => {
    const a = await newAccount();
    const s = await setup(a, (_req, n) => (n === 1 ? { status: 429, body: "slow down", headers: { "Retry-After": "2" } } : { status: 200 }));
    const id = await rule(a, { channelIds: [s.channel] });
    await post(a, s.trackable.id, [{ ...OUTSIDE, timestamp: at(3000) }, { ...INSIDE, timestamp: at(2000) }]);
    const sent = await until("sent after the retry", async () => (await log(a, `ruleId=${id}`)).find((d) => d.status === "sent"));
    expect(sent.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([429, 200]);
    expect(Date.parse(sent.attempts[1].attemptedAt) - Date.parse(sent.attempts[0].attemptedAt)).toBeGreaterThanOrEqual(1950);
    expect(s.received()).toHaveLength(2);
  });

  it("a 5xx is retried on the schedule and ends failed; a 4xx other than 408/429 is final at once", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const down = await setup(a, () => ({ status: 502, body: "bad gateway" }));
    const refused = await setup(b, () => ({ status: 403, body: "forbidden" }));
    const r1 = await rule(a, { channelIds: [down.channel] });
    const r2 = await rule(b, { channelIds: [refused.channel] });
    await post(a, down.trackable.id, [{ ...OUTSIDE, timestamp: at(3000) }, { ...INSIDE, timestamp: at(2000) }]);
    await post(b, refused.trackable.id, [{ ...OUTSIDE, timestamp: at(3000) }, { ...INSIDE, timestamp: at(2000) }]);
    const failed = await until("the 5xx delivery failed", async () => (await log(a, `ruleId=${r1}`)).find((d) => d.status === "failed"));
    expect(failed.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([502, 502, 502, 502]);
    const final = await until("the 4xx delivery failed", async () => (await log(b, `ruleId=${r2}&status=failed`))[0]);
    expect(final.attempts).toEqual([{ attemptedAt: expect.any(String), statusCode: 403, error: "HTTP 403" }]);
    expect(refused.received()).toHaveLength(1);
    expect(down.received()).toHaveLength(4);
  });
});
