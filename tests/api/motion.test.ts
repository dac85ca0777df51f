import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, newAccount, useServer, type TestAccount } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { securitySuite } from "../harness/security";
import { basicAuth, newDevice, send } from "../support/devices";
import { startReceiver } from "../support/receiver";

// Trips and stops from real tracks posted through the API and a device format: in one batch, one by one, and in
// shuffled batches, the same trips; events delivered once.

const M_PER_DEG = 111_195;
/** Two hours ago, on a whole second (OwnTracks sends seconds). */
const T0 = Math.floor((Date.now() - 2 * 3600_000) / 1000) * 1000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const north = (m: number) => 52.5 + m / M_PER_DEG;

/** Parked for 6 minutes, 6 minutes north at 15 m/s (a fix every 20 s), parked for 6 minutes: 33 fixes. */
function day() {
  const fixes: { latitude: number; longitude: number; accuracy: number; timestamp: string }[] = [];
  const fix = (s: number, m: number) => fixes.push({ latitude: north(m), longitude: 13.4, accuracy: 8, timestamp: at(s) });
  for (let s = 0; s <= 360; s += 60) fix(s, 0);
  for (let s = 380; s <= 720; s += 20) fix(s, (s - 360) * 15);
  for (let s = 780; s <= 1140; s += 60) fix(s, 360 * 15);
  return fixes;
}

const shuffle = <T>(list: T[], seed: number): T[] => {
  const out = [...list];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

async function trackable(a: TestAccount, body: object = {}) {
  const res = await a.api("POST", "/trackables", { name: "Van 3", type: "vehicle", ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const post = async (a: TestAccount, id: string, locations: object[]) => {
  const res = await a.api("POST", `/trackables/${id}/locations`, { locations });
  expect(res.status, res.text).toBe(201);
};

const without = (o: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** Trips and stops without ids (which differ between trackables). */
async function motionOf(a: TestAccount, id: string) {
  const trips = await a.api("GET", `/trips?trackableId=${id}&limit=100`);
  const stops = await a.api("GET", `/stops?trackableId=${id}&limit=100`);
  expect(trips.status, trips.text).toBe(200);
  expect(stops.status, stops.text).toBe(200);
  return {
    trips: trips.body.data.map((t: any) => without(t, "id", "trackableId")),
    stops: stops.body.data.map((s: any) => without(s, "trackableId")),
  };
}

/** Polls until the trackable's trips and stops equal `expected` (evaluation runs after the posts return). */
async function settlesTo(a: TestAccount, id: string, expected: unknown, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    last = await motionOf(a, id);
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) expect(last).toEqual(expected);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(v).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

let reference: Awaited<ReturnType<typeof motionOf>>;

securitySuite("GET /trips", { method: "GET", path: () => "/trips" }, { tenancy: false });
securitySuite("GET /stops", { method: "GET", path: () => "/stops" }, { tenancy: false });

describe("trips and stops", () => {
  beforeAll(async () => {
    const a = await newAccount();
    const id = await trackable(a);
    await post(a, id, day());
    reference = await until(
      () => motionOf(a, id),
      (m) => m.trips.length === 1 && m.trips[0].status === "completed" && m.stops.length === 2,
    );
  });

  it("a parked, driven, parked track is one completed trip between two stops", () => {
    const [trip] = reference.trips;
    expect(trip).toMatchObject({ status: "completed", startedAt: at(360), endedAt: at(720) });
    // The trip's track: from the last parked fix to the first fix of the stop (each 20 s leg is 300 m).
    expect(trip.distance).toBeCloseTo(5400, -1);
    expect(trip.duration).toBe(360);
    expect(trip.maxSpeed).toBeCloseTo(15, 1);
    expect(trip.averageSpeed).toBeCloseTo(15, 1);
    expect(trip.pointCount).toBe(19);
    expect(reference.stops.map((s: any) => [s.startedAt, s.endedAt])).toEqual([
      [at(720), null],
      [at(0), at(360)],
    ]);
    expect(reference.stops[0].geofenceIds).toEqual([]);
  });

  it("the same fixes one by one, in shuffled batches and late give the same trips and stops", async () => {
    const a = await newAccount();
    const fixes = day();
    const oneByOne = await trackable(a);
    for (const f of fixes) await post(a, oneByOne, [f]);
    await settlesTo(a, oneByOne, reference);

    const b = await newAccount();
    const shuffled = await trackable(b);
    const mixed = shuffle(fixes, 7);
    for (let i = 0; i < mixed.length; i += 5) await post(b, shuffled, mixed.slice(i, i + 5));
    await settlesTo(b, shuffled, reference);

    // Everything but the drive, then the drive late: the late fixes recompute their window.
    const c = await newAccount();
    const late = await trackable(c);
    await post(c, late, [...fixes.slice(0, 7), ...fixes.slice(26)]);
    await until(() => motionOf(c, late), (m) => m.trips.length === 1);
    await post(c, late, fixes.slice(7, 26));
    await settlesTo(c, late, reference);
  });

  it("a tracking app's fixes (OwnTracks) make the same trip", async () => {
    const { account, trackableId, token } = await newDevice({ name: "Phone" });
    const headers = { "Content-Type": "application/json; charset=utf-8", Authorization: basicAuth("jane", token) };
    for (const f of day()) {
      const res = await send("POST", "/ingest/owntracks", {
        headers,
        body: JSON.stringify({ _type: "location", lat: f.latitude, lon: f.longitude, acc: f.accuracy, tst: Date.parse(f.timestamp) / 1000 }),
      });
      expect(res.status, res.text).toBe(200);
    }
    await settlesTo(account, trackableId, reference);
  });

  describe("webhooks", () => {
    // A server of its own that may deliver to the local receiver.
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true" } });
      useServer(server);
    });
    afterAll(async () => {
      useServer(null);
      await server?.stop();
    });

  it("trip.started and trip.ended reach a webhook once, with the trip; a late fix inside the trip sends nothing again", async () => {
    const receiver = await startReceiver();
    try {
      const a = await newAccount();
      const hook = await a.api("POST", "/webhooks", { url: receiver.url, events: ["trip.started", "trip.ended"] });
      expect(hook.status, hook.text).toBe(201);
      const id = await trackable(a);
      const fixes = day();
      const inside = fixes.splice(15, 1);
      for (let i = 0; i < fixes.length; i += 4) await post(a, id, fixes.slice(i, i + 4));
      await receiver.waitFor(2);
      await post(a, id, inside);
      await settlesTo(a, id, reference);
      await new Promise((r) => setTimeout(r, 1500));
      // Deliveries run concurrently and may arrive in any order (as the webhook docs say): match them by type.
      const bodies = receiver.received.map((r) => r.json);
      expect(bodies.map((b) => b.event).sort()).toEqual(["trip.ended", "trip.started"]);
      const started = bodies.find((b) => b.event === "trip.started")!;
      const ended = bodies.find((b) => b.event === "trip.ended")!;
      expect(started.beacon).toEqual({ id, name: "Van 3", type: "vehicle" });
      expect(started.occurred_at).toBe(at(360));
      expect(ended.occurred_at).toBe(at(720));
      expect(ended.trip.id).toBe(started.trip.id);
      expect(ended.trip).toMatchObject({ status: "completed", trackableId: id, endedAt: at(720) });
      // The events log keeps them with the trip's id, which GET /trips/{id} answers.
      const events = await a.api("GET", `/events?trackableId=${id}`);
      expect(events.body.data.filter((e: any) => e.type.startsWith("trip.")).map((e: any) => [e.type, e.tripId])).toEqual([
        ["trip.ended", ended.trip.id],
        ["trip.started", ended.trip.id],
      ]);
      const trip = await a.api("GET", `/trips/${ended.trip.id}`);
      expect(trip.status, trip.text).toBe(200);
      expect(trip.body).toMatchObject({ id: ended.trip.id, status: "completed", distance: reference.trips[0].distance });
    } finally {
      await receiver.close();
    }
  });
  });

  it("speed.exceeded once per episode above the trackable's limit, or a geofence's lower one", async () => {
    const a = await newAccount();
    const id = await trackable(a, { motion: { speedLimit: 20 } });
    const patched = await a.api("PATCH", `/trackables/${id}`, { motion: { speedLimit: 12, speedMinDuration: 30 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.motion).toEqual({ minTripDistance: 200, minStopDuration: 180, stopGap: 3600, speedLimit: 12, speedMinDuration: 30 });
    await post(a, id, day());
    const events = await until(
      () => a.api("GET", `/events?trackableId=${id}&type=speed.exceeded`),
      (r) => r.body.data.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const all = (await a.api("GET", `/events?trackableId=${id}&type=speed.exceeded`)).body.data;
    expect(all).toHaveLength(1);
    const trips = (await a.api("GET", `/trips?trackableId=${id}`)).body.data;
    expect(all[0]).toMatchObject({ tripId: trips[0].id, occurredAt: at(420) });
    expect(events.status).toBe(200);

    // A geofence with a lower limit around the road: the lower one applies there.
    const b = await newAccount();
    const fence = await b.api("POST", "/geofences", { name: "School", latitude: north(2700), longitude: 13.4, radius: 3000, speedLimit: 8 });
    expect(fence.status, fence.text).toBe(201);
    expect(fence.body.speedLimit).toBe(8);
    const other = await trackable(b, { motion: { speedLimit: 30 } });
    await post(b, other, day());
    const [event] = (
      await until(
        () => b.api("GET", `/events?trackableId=${other}&type=speed.exceeded`),
        (r) => r.body.data.length >= 1,
      )
    ).body.data;
    expect(event.geofenceId).toBe(fence.body.id);
  });

  it("a trip's locations as JSON, GPX and GeoJSON", async () => {
    const a = await newAccount();
    const id = await trackable(a);
    await post(a, id, day());
    const [trip] = (await until(() => motionOf(a, id), (m) => m.trips.length === 1 && m.trips[0].status === "completed")).trips;
    const [row] = (await a.api("GET", `/trips?trackableId=${id}`)).body.data;
    expect(row).toMatchObject(trip);
    const json = await a.api("GET", `/trips/${row.id}/locations`);
    expect(json.status, json.text).toBe(200);
    expect(json.body.data).toHaveLength(19);
    expect(json.body.data[0].timestamp).toBe(at(360));
    for (const [format, type, marker] of [
      ["gpx", "application/gpx+xml", "<trkpt"],
      ["geojson", "application/geo+json", '"Feature"'],
    ] as const) {
      const res = await fetch(`${baseUrl()}/api/v1/trips/${row.id}/locations?format=${format}`, { headers: { Authorization: `Bearer ${a.key}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain(type);
      expect((await res.text()).split(marker).length - 1).toBe(19);
    }
  });

  describe("errors and tenancy", () => {
    let owner: TestAccount;
    let tripId: string;
    let trackableId: string;
    beforeAll(async () => {
      owner = await newAccount();
      trackableId = await trackable(owner);
      await post(owner, trackableId, day());
      tripId = (await until(() => owner.api("GET", `/trips?trackableId=${trackableId}`), (r) => r.body.data.length === 1)).body.data[0].id;
    });
    afterAll(() => undefined);

    it("another account's trip and trackable are not found", async () => {
      const other = await newAccount();
      for (const path of [`/trips/${tripId}`, `/trips/${tripId}/locations`, `/trips?trackableId=${trackableId}`, `/stops?trackableId=${trackableId}`]) {
        const res = await other.api("GET", path);
        expect(res.status, path).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
      expect((await other.api("GET", "/trips")).body.data).toEqual([]);
    });

    it("bad parameters are 400s that name them", async () => {
      for (const [path, name] of [
        ["/trips?status=parked", "status"],
        ["/trips?limit=101", "limit"],
        ["/trips?from=yesterday", "from"],
        [`/trips/${tripId}/locations?format=kml`, "format"],
        ["/stops?cursor=abc", "cursor"],
      ] as const) {
        const res = await owner.api("GET", path);
        expect(res.status, path).toBe(400);
        expect(res.body.error.code).toBe("invalid_request");
        expect(res.body.error.message.toLowerCase(), path).toContain(name);
      }
      const bad = await owner.api("PATCH", `/trackables/${trackableId}`, { motion: { minTripDistance: -1, speedLimit: "fast", colour: 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/minTripDistance/);
      expect(bad.body.error.message).toMatch(/speedLimit/);
      expect(bad.body.error.message).toMatch(/colour/);
    });

    it("summarizes the trackable's days in a time zone", async () => {
      const range = `trackableId=${trackableId}&from=${at(-3600)}&to=${at(3 * 3600)}`;
      for (const zone of ["UTC", "Asia/Kathmandu"]) {
        const res = await owner.api("GET", `/reports/summary?${range}&timeZone=${zone}&period=day`);
        expect(res.status, res.text).toBe(200);
        const days = res.body.days as any[];
        expect(days.length).toBeGreaterThanOrEqual(1);
        const sum = (k: string) => days.reduce((n, d) => n + d[k], 0);
        expect(sum("distance")).toBeCloseTo(5400, -1);
        expect(sum("movingSeconds")).toBeCloseTo(360, 3);
        // The two stops: 0–360 s and, still open, 720–1140 s (its newest fix).
        expect(sum("stoppedSeconds")).toBeCloseTo(360 + 420, 3);
        expect(sum("tripCount")).toBe(1);
        expect(Math.max(...days.map((d) => d.maxSpeed))).toBeCloseTo(15, 1);
      }
      const zone = await owner.api("GET", `/reports/summary?${range}&timeZone=Mars/Olympus`);
      expect(zone.status).toBe(400);
      expect(zone.body.error.message).toContain("timeZone");
      const other = await newAccount();
      expect((await other.api("GET", `/reports/summary?${range}`)).status).toBe(404);
    });

    it("pages trips and stops with a cursor", async () => {
      const first = await owner.api("GET", `/stops?trackableId=${trackableId}&limit=1`);
      expect(first.body.data).toHaveLength(1);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await owner.api("GET", `/stops?trackableId=${trackableId}&limit=1&cursor=${first.body.nextCursor}`);
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0].startedAt < first.body.data[0].startedAt).toBe(true);
      expect(second.body.nextCursor).toBeNull();
    });
  });
});
