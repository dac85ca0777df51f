import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { EXPORT_RESOURCES } from "@/lib/exports/schemas";
import { baseUrl, newAccount, request, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";

// The workspace export end to end: data made through the API, the zip downloaded and read back entry by entry.

const CENTRE = { latitude: 52.52, longitude: 13.405 };
const OUTSIDE = { latitude: 52.53, longitude: 13.42 };
const WEBHOOK_SECRET = "hook-secret-3f9a1c77e2b54d08";
const FENCE_SECRET = "fence-secret-8d21b6a0c4e94f11";
const NTFY_TOKEN = "tk_ntfy-secret-51c0e7a9b3d2";
// More than one page of the export's reads (5,000 rows), with ties on the timestamp across the page boundary.
const HISTORY = 5_003;

async function download(a: TestAccount, url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url.replace(/^https?:\/\/[^/]+/, baseUrl()), { headers: { Authorization: `Bearer ${a.key}` } });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The zip's entries, each read whole, in the zip's order. */
function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, string>();
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on("error", reject);
      zip.on("end", () => resolve(files));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openErr, stream) => {
          if (openErr) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", reject);
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const lines = (text: string | undefined): Record<string, unknown>[] =>
  (text ?? "").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

async function poll<T>(read: () => Promise<T[]>, min: number): Promise<T[]> {
  const deadline = Date.now() + 15_000;
  let got: T[] = [];
  while (Date.now() < deadline) {
    got = await read();
    if (got.length >= min) return got;
    await new Promise((r) => setTimeout(r, 200));
  }
  return got;
}

async function populate(a: TestAccount) {
  const van = (await a.api("POST", "/trackables", { name: "Van", metadata: { plate: "B-FL 1" } })).body.id as string;
  const bike = (await a.api("POST", "/trackables", { name: "Bike" })).body.id as string;
  const t0 = Date.parse("2026-01-10T12:00:00.000Z");
  const points = Array.from({ length: HISTORY }, (_, i) => ({
    latitude: 10 + i * 1e-5,
    longitude: 10,
    timestamp: new Date(t0 + Math.floor((i + 1) / 2) * 1000).toISOString(),
  }));
  for (let i = 0; i < points.length; i += 1000) {
    const res = await a.api("POST", `/trackables/${van}/locations`, { locations: points.slice(i, i + 1000) });
    expect(res.status, res.text).toBe(201);
  }
  const device = await a.api("POST", `/trackables/${bike}/device-tokens`, { name: "Phone" });
  expect(device.status, device.text).toBe(201);
  const hook = await a.api("POST", "/webhooks", { url: "https://example.com/hooks/fenceline", events: ["geofence.entry"], secret: WEBHOOK_SECRET });
  expect(hook.status, hook.text).toBe(201);
  const fence = await a.api("POST", "/geofences", {
    name: "Depot",
    ...CENTRE,
    radius: 200,
    notificationType: "webhook",
    webhookUrl: "https://example.com/fence",
    webhookSecret: FENCE_SECRET,
  });
  expect(fence.status, fence.text).toBe(201);
  const channel = await a.api("POST", "/notification-channels", { name: "Phones", type: "ntfy", config: { topic: "fleet", token: NTFY_TOKEN } });
  expect(channel.status, channel.text).toBe(201);
  const rule = await a.api("POST", "/notification-rules", { name: "Arrivals", eventTypes: ["geofence.entry"], channelIds: [channel.body.id] });
  expect(rule.status, rule.text).toBe(201);
  const link = await a.api("POST", "/share-links", { trackableId: bike });
  expect(link.status, link.text).toBe(201);
  const zone = await a.api("POST", "/privacy-zones", { name: "Home", latitude: 48.1, longitude: 11.5, radius: 100 });
  expect(zone.status, zone.text).toBe(201);
  const csv = "timestamp,latitude,longitude\n2026-01-01T08:00:00Z,40.1,-3.7\n2026-01-01T08:01:00Z,40.2,-3.7\n";
  const imported = await fetch(`${baseUrl()}/api/v1/trackables/${bike}/imports`, {
    method: "POST",
    headers: { Authorization: `Bearer ${a.key}`, "Content-Type": "text/csv" },
    body: csv,
  });
  expect(imported.status).toBe(202);
  const now = Date.now();
  await a.api("POST", `/trackables/${bike}/locations`, { ...OUTSIDE, timestamp: new Date(now - 60_000).toISOString() });
  await a.api("POST", `/trackables/${bike}/locations`, { ...CENTRE, timestamp: new Date(now - 30_000).toISOString() });
  const events = await poll(async () => (await a.api("GET", "/events")).body.data as unknown[], 1);
  const deliveries = await poll(async () => (await a.api("GET", "/webhook-deliveries")).body.data as unknown[], 1);
  const notified = await poll(async () => (await a.api("GET", "/notification-deliveries")).body.data as unknown[], 1);
  return {
    van,
    bike,
    events,
    deliveries,
    notified,
    secrets: [WEBHOOK_SECRET, FENCE_SECRET, NTFY_TOKEN, device.body.token as string, (link.body.url as string).split("/share/")[1]!, a.key],
  };
}

securitySuite("POST /account/export", { method: "POST", path: () => "/account/export" }, { tenancy: false });
securitySuite("GET /account/exports/{id}", {
  method: "GET",
  path: async (o) => `/account/exports/${(await o.api("POST", "/account/export")).body.id}`,
});
securitySuite(
  "GET /account/exports/{id}/download",
  { method: "GET", path: async (o) => `/account/exports/${(await o.api("POST", "/account/export")).body.id}/download`, contentType: "application/zip" },
);

describe("workspace export", () => {
  it("downloads every resource as JSON lines in a zip, without a secret or token anywhere", { timeout: 120_000 }, async () => {
    const a = await newAccount();
    const data = await populate(a);

    const created = await a.api("POST", "/account/export");
    expect(created.status, created.text).toBe(202);
    expect(created.body).toEqual({
      id: expect.any(String),
      status: "completed",
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      downloadUrl: expect.stringMatching(new RegExp(`/api/v1/account/exports/${created.body.id}/download$`)),
    });
    expect(created.headers.get("location")).toBe(`/api/v1/account/exports/${created.body.id}`);
    const read = await a.api("GET", `/account/exports/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const zip = await download(a, created.body.downloadUrl);
    expect(zip.status).toBe(200);
    expect(zip.type).toBe("application/zip");
    const text = zip.bytes.toString("latin1");
    for (const secret of data.secrets) expect(text.includes(secret), `a secret in the raw zip: ${secret.slice(0, 6)}…`).toBe(false);

    const files = await unzip(zip.bytes);
    expect([...files.keys()]).toEqual(EXPORT_RESOURCES.map((r) => `${r}.jsonl`));
    const all = [...files.values()].join("\n");
    for (const secret of data.secrets) expect(all.includes(secret), `a secret in the files: ${secret.slice(0, 6)}…`).toBe(false);
    const file = (name: string) => lines(files.get(`${name}.jsonl`));

    expect(file("account")).toEqual([expect.objectContaining({ id: a.accountId, plan: "enterprise" })]);
    expect(file("members")).toEqual([]);
    const trackables = file("trackables");
    expect(trackables.map((t) => t.name).sort()).toEqual(["Bike", "Van"]);
    const van = (await a.api("GET", `/trackables/${data.van}`)).body;
    delete van.lastLocation;
    expect(trackables.find((t) => t.id === data.van)).toEqual(van);

    const locations = file("locations");
    expect(locations).toHaveLength(HISTORY + 4);
    expect(new Set(locations.map((l) => l.id)).size).toBe(locations.length);
    const vanHistory = locations.filter((l) => l.trackableId === data.van);
    expect(vanHistory.map((l) => l.latitude)).toEqual(Array.from({ length: HISTORY }, (_, i) => 10 + i * 1e-5));

    expect(file("device-tokens")).toEqual([expect.objectContaining({ trackableId: data.bike, name: "Phone" })]);
    expect(file("geofences")).toEqual([expect.objectContaining({ name: "Depot", webhookSecretSet: true, trackableIds: null })]);
    expect(file("webhooks")).toEqual([expect.objectContaining({ url: "https://example.com/hooks/fenceline", secretSet: true })]);
    // Evaluation may still record events meanwhile: the file holds those seen before and only those seen after.
    const exported = new Set(file("events").map((e) => e.id));
    for (const e of data.events as { id: string }[]) expect(exported.has(e.id)).toBe(true);
    const after = new Set(((await a.api("GET", "/events?limit=100")).body.data as { id: string }[]).map((e) => e.id));
    for (const id of exported) expect(after.has(id as string)).toBe(true);
    expect(file("webhook-deliveries").length).toBeGreaterThanOrEqual(data.deliveries.length);
    expect(file("share-links")).toEqual([
      { id: expect.any(String), trackableId: data.bike, name: null, expiresAt: expect.anything(), revokedAt: null, createdAt: expect.any(String) },
    ]);
    expect(file("notification-channels")).toEqual([expect.objectContaining({ name: "Phones", config: expect.objectContaining({ topic: "fleet", tokenSet: true }) })]);
    expect(file("notification-rules")).toEqual([expect.objectContaining({ name: "Arrivals" })]);
    expect(file("notification-deliveries").length).toBeGreaterThanOrEqual(data.notified.length);
    expect(file("privacy-zones")).toEqual([expect.objectContaining({ name: "Home", radius: 100 })]);
    expect(file("imports")).toEqual([expect.objectContaining({ trackableId: data.bike, format: "csv", stored: 2 })]);
  });

  it("another workspace's export is 404, and its own export holds none of the first's data", async () => {
    const a = await newAccount();
    const b = await newAccount();
    await a.api("POST", "/trackables", { name: "Only in A" });
    const mine = (await a.api("POST", "/account/export")).body;
    expect((await b.api("GET", `/account/exports/${mine.id}`)).status).toBe(404);
    const stolen = await download(b, mine.downloadUrl);
    expect(stolen.status).toBe(404);
    const theirs = (await b.api("POST", "/account/export")).body;
    const files = await unzip((await download(b, theirs.downloadUrl)).bytes);
    expect(lines(files.get("trackables.jsonl"))).toEqual([]);
    expect(lines(files.get("account.jsonl"))).toEqual([expect.objectContaining({ id: b.accountId })]);
    expect((await a.api("GET", "/account/exports/not-a-uuid")).status).toBe(404);
  });

  it("offers only the statuses an export can have: no failed, since a failed read breaks the download off", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    expect(doc.components.schemas.AccountExport.properties.status.enum).toEqual(["running", "completed"]);
  });
});
