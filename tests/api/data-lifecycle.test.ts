import { describe, expect, it } from "vitest";
import { newAccount, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";
import { newDevice, send, storedLocations } from "../support/devices";

// Paused tracking and privacy zones hold on every door a position comes in by: the API (one point, a batch) and each
// device format (Traccar/OsmAnd/GPSLogger query and form, Traccar Client JSON, OwnTracks, Overland).

const CENTRE = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { latitude: 52.5203, longitude: 13.4055 }; // ~40 m from the centre
const OUTSIDE = { latitude: 52.53, longitude: 13.42 }; // ~1.4 km away

/** Posts one point at `p` through every door, each with its own timestamp; answers each door's status. */
async function postEverywhere(account: TestAccount, trackableId: string, token: string, p: { latitude: number; longitude: number }) {
  const t = Math.floor(Date.now() / 1000) - 600 + Math.floor(Math.random() * 300);
  const iso = (s: number) => new Date(s * 1000).toISOString();
  const json = (body: unknown, auth?: string) => ({
    headers: { "Content-Type": "application/json", ...(auth ? { Authorization: auth } : {}) },
    body: JSON.stringify(body),
  });
  const replies = {
    apiOne: (await account.api("POST", `/trackables/${trackableId}/locations`, { ...p, timestamp: iso(t) })).status,
    apiBatch: (await account.api("POST", `/trackables/${trackableId}/locations`, { locations: [{ ...p, timestamp: iso(t + 1) }] })).status,
    traccarGet: (await send("GET", `/ingest/traccar?id=${token}&lat=${p.latitude}&lon=${p.longitude}&timestamp=${t + 2}`)).status,
    traccarForm: (
      await send("POST", "/ingest/traccar", {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `id=${token}&lat=${p.latitude}&lon=${p.longitude}&timestamp=${t + 3}`,
      })
    ).status,
    traccarJson: (
      await send("POST", "/ingest/traccar", json({ device_id: token, location: { timestamp: iso(t + 4), coords: { ...p } } }))
    ).status,
    owntracks: (
      await send(
        "POST",
        "/ingest/owntracks",
        json({ _type: "location", lat: p.latitude, lon: p.longitude, tst: t + 5 }, `Basic ${Buffer.from(`u:${token}`).toString("base64")}`),
      )
    ).status,
    overland: (
      await send(
        "POST",
        "/ingest/overland",
        json(
          { locations: [{ type: "Feature", geometry: { type: "Point", coordinates: [p.longitude, p.latitude] }, properties: { timestamp: iso(t + 6) } }] },
          `Bearer ${token}`,
        ),
      )
    ).status,
  };
  return replies;
}

const ACKNOWLEDGED = { apiOne: 201, apiBatch: 201, traccarGet: 200, traccarForm: 200, traccarJson: 200, owntracks: 200, overland: 200 };
const SOURCES = ["api", "api", "traccar", "traccar", "traccar", "owntracks", "overland"];

describe("tracking: paused", () => {
  it("PATCH sets it; while paused every door acknowledges and stores nothing; active again stores", async () => {
    const { account, trackableId, token } = await newDevice();
    const fresh = await account.api("GET", `/trackables/${trackableId}`);
    expect(fresh.body.tracking).toBe("active");

    const paused = await account.api("PATCH", `/trackables/${trackableId}`, { tracking: "paused" });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.tracking).toBe("paused");
    expect(await postEverywhere(account, trackableId, token, OUTSIDE)).toEqual(ACKNOWLEDGED);
    const one = await account.api("POST", `/trackables/${trackableId}/locations`, OUTSIDE);
    expect(one.body).toEqual({ data: [] });
    expect(await storedLocations(account, trackableId)).toEqual([]);

    expect((await account.api("PATCH", `/trackables/${trackableId}`, { tracking: "active" })).body.tracking).toBe("active");
    expect(await postEverywhere(account, trackableId, token, OUTSIDE)).toEqual(ACKNOWLEDGED);
    expect((await storedLocations(account, trackableId)).map((l) => l.source).sort()).toEqual([...SOURCES].sort());
  });

  it("400 for a value that is not active or paused; another account's trackable is 404", async () => {
    const { account, trackableId } = await newDevice();
    const bad = await account.api("PATCH", `/trackables/${trackableId}`, { tracking: "sleeping" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("tracking");
    const other = await newAccount();
    expect((await other.api("PATCH", `/trackables/${trackableId}`, { tracking: "paused" })).status).toBe(404);
  });
});

securitySuite("GET /privacy-zones/{id}", {
  method: "GET",
  path: async (o) => `/privacy-zones/${(await o.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 100 })).body.id}`,
});
securitySuite("GET /account", { method: "GET", path: () => "/account" }, { tenancy: false });

describe("privacy zones: the resource", () => {
  it("creates with defaults, reads, lists newest first in pages, updates and deletes", async () => {
    const a = await newAccount();
    const created = await a.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 150 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Home",
      ...CENTRE,
      radius: 150,
      trackableIds: null,
      mode: "drop",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = await a.api("POST", "/privacy-zones", { name: "Office", ...OUTSIDE, radius: 50, mode: "blur" });
    const page1 = await a.api("GET", "/privacy-zones?limit=1");
    expect(page1.body.data.map((z: { id: string }) => z.id)).toEqual([second.body.id]);
    const page2 = await a.api("GET", `/privacy-zones?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toEqual({ data: [created.body], nextCursor: null });

    const patched = await a.api("PATCH", `/privacy-zones/${created.body.id}`, { mode: "blur", radius: 300 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: "Home", mode: "blur", radius: 300 });
    expect((await a.api("GET", `/privacy-zones/${created.body.id}`)).body).toEqual(patched.body);
    expect((await a.api("DELETE", `/privacy-zones/${created.body.id}`)).status).toBe(204);
    expect((await a.api("GET", `/privacy-zones/${created.body.id}`)).status).toBe(404);
  });

  it("400 for a radius under 50 m, a bad mode, every invalid field, and trackables not of the account", async () => {
    const a = await newAccount();
    const small = await a.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 49 });
    expect(small.status).toBe(400);
    expect(small.body.error.message).toContain("radius");
    const many = await a.api("POST", "/privacy-zones", { name: "", latitude: 91, longitude: 13, radius: 100, mode: "hide" });
    expect(many.status).toBe(400);
    for (const field of ["name", "latitude", "mode"]) expect(many.body.error.message).toContain(field);
    const other = await newDevice();
    const foreign = await a.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 100, trackableIds: [other.trackableId] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toContain("trackableIds[0]");
  });

  it("another account's zone is 404 to read, change and delete, and absent from its list", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const zone = (await a.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 100 })).body;
    expect((await b.api("GET", `/privacy-zones/${zone.id}`)).status).toBe(404);
    expect((await b.api("PATCH", `/privacy-zones/${zone.id}`, { radius: 200 })).status).toBe(404);
    expect((await b.api("DELETE", `/privacy-zones/${zone.id}`)).status).toBe(404);
    expect((await b.api("GET", "/privacy-zones")).body.data).toEqual([]);
  });
});

describe("privacy zones: applied on every door before storage", () => {
  it("drop: a fix inside is acknowledged and not stored; outside is stored; the zone's removal takes effect at once", async () => {
    const { account, trackableId, token } = await newDevice();
    const zone = await account.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 100 });
    expect(await postEverywhere(account, trackableId, token, INSIDE)).toEqual(ACKNOWLEDGED);
    expect(await storedLocations(account, trackableId)).toEqual([]);

    const batch = await account.api("POST", `/trackables/${trackableId}/locations`, { locations: [INSIDE, OUTSIDE, INSIDE] });
    expect(batch.status).toBe(201);
    expect(batch.body.data.map((l: { latitude: number }) => l.latitude)).toEqual([OUTSIDE.latitude]);

    await account.api("DELETE", `/privacy-zones/${zone.body.id}`);
    expect(await postEverywhere(account, trackableId, token, INSIDE)).toEqual(ACKNOWLEDGED);
    expect((await storedLocations(account, trackableId)).filter((l) => l.latitude === INSIDE.latitude)).toHaveLength(SOURCES.length);
  });

  it("blur: a fix inside is stored at the zone's centre with accuracy = the radius, on every door", async () => {
    const { account, trackableId, token } = await newDevice();
    await account.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 120, mode: "blur" });
    expect(await postEverywhere(account, trackableId, token, INSIDE)).toEqual(ACKNOWLEDGED);
    const stored = await storedLocations(account, trackableId);
    expect(stored.map((l) => l.source).sort()).toEqual([...SOURCES].sort());
    for (const l of stored) expect({ latitude: l.latitude, longitude: l.longitude, accuracy: l.accuracy }).toEqual({ ...CENTRE, accuracy: 120 });
  });

  it("blur is evaluated at the centre, drop not at all: a fence around the centre is entered from a fix 150 m out", async () => {
    const { account, trackableId } = await newDevice();
    await account.api("POST", "/geofences", { name: "Front door", ...CENTRE, radius: 30 });
    const far = { latitude: 52.5, longitude: 13.5 };
    await account.api("POST", "/geofences", { name: "Hidden", ...far, radius: 60 });
    await account.api("POST", "/privacy-zones", { name: "Hide", ...far, radius: 300 });
    const blur = await account.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 200, mode: "blur" });
    expect(blur.status).toBe(201);
    const t0 = Date.now() - 60_000;
    // First inside the drop zone's fence (discarded), then 150 m from the blur zone's centre, outside "Front door".
    await account.api("POST", `/trackables/${trackableId}/locations`, { ...far, timestamp: new Date(t0).toISOString() });
    await account.api("POST", `/trackables/${trackableId}/locations`, { latitude: 52.52135, longitude: 13.405, timestamp: new Date(t0 + 1000).toISOString() });
    const deadline = Date.now() + 15_000;
    let events: { type: string; geofenceId: string | null }[] = [];
    while (Date.now() < deadline) {
      events = (await account.api("GET", `/events?trackableId=${trackableId}&type=geofence.entry`)).body.data;
      if (events.length > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(events).toHaveLength(1);
    const fences = (await account.api("GET", "/geofences")).body.data as { id: string; name: string }[];
    expect(fences.find((f) => f.id === events[0]!.geofenceId)?.name).toBe("Front door");
  });

  it("a zone for some trackables leaves the others alone; an edit applies on the next post", async () => {
    const a = await newDevice();
    const b = await newDevice({ account: a.account, name: "Other" });
    const zone = await a.account.api("POST", "/privacy-zones", { name: "Home", ...CENTRE, radius: 100, trackableIds: [a.trackableId] });
    expect(zone.body.trackableIds).toEqual([a.trackableId]);
    await a.account.api("POST", `/trackables/${a.trackableId}/locations`, INSIDE);
    await a.account.api("POST", `/trackables/${b.trackableId}/locations`, INSIDE);
    expect(await storedLocations(a.account, a.trackableId)).toEqual([]);
    expect(await storedLocations(a.account, b.trackableId)).toHaveLength(1);

    await a.account.api("PATCH", `/privacy-zones/${zone.body.id}`, { trackableIds: null });
    await a.account.api("POST", `/trackables/${b.trackableId}/locations`, { ...INSIDE, timestamp: new Date().toISOString() });
    expect(await storedLocations(a.account, b.trackableId)).toHaveLength(1);
  });
});

describe("account", () => {
  it("GET answers id, name, slug, plan and retention (null: forever); PATCH changes only what is sent", async () => {
    const a = await newAccount();
    const got = await a.api("GET", "/account");
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual({
      id: a.accountId,
      name: expect.any(String),
      slug: expect.any(String),
      plan: "enterprise",
      retention: { locationDays: null, eventDays: null, deliveryDays: null },
    });
    const patched = await a.api("PATCH", "/account", { retention: { locationDays: 30, deliveryDays: 7 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.retention).toEqual({ locationDays: 30, eventDays: null, deliveryDays: 7 });
    const back = await a.api("PATCH", "/account", { retention: { deliveryDays: null } });
    expect(back.body.retention).toEqual({ locationDays: 30, eventDays: null, deliveryDays: null });
    expect(back.body.name).toBe(got.body.name);
  });

  it("400 for days under 1, fractions and unknown fields, naming each", async () => {
    const a = await newAccount();
    const res = await a.api("PATCH", "/account", { retention: { locationDays: 0, eventDays: 1.5 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("retention.locationDays");
    expect(res.body.error.message).toContain("retention.eventDays");
    expect((await a.api("PATCH", "/account", { retention: { forever: true } })).status).toBe(400);
    expect((await a.api("PATCH", "/account", { plan: "free" })).status).toBe(400);
  });
});
