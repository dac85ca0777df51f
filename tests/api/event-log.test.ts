import { describe, expect, it } from "vitest";
import { newAccount, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";

// The event log and occupancy, on the shared server (embedded runner, real evaluation), on both plans.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NIL_V4 = "00000000-0000-4000-8000-000000000000";
const CENTER = { latitude: 52.52, longitude: 13.405 };
const INSIDE = { latitude: 52.5201, longitude: 13.4051 };
const OUTSIDE = { latitude: 52.53, longitude: 13.405 };
// A "U" opening north, 0.03° wide, far from the circle: x 13.5–13.53, y 52.6–52.63, notch x 13.51–13.52, y ≥ 52.61.
const U = {
  type: "Polygon",
  coordinates: [[[13.5, 52.6], [13.53, 52.6], [13.53, 52.63], [13.52, 52.63], [13.52, 52.61], [13.51, 52.61], [13.51, 52.63], [13.5, 52.63], [13.5, 52.6]]],
};
const IN_NOTCH = { latitude: 52.62, longitude: 13.515 };
const IN_ARM = { latitude: 52.62, longitude: 13.505 };

async function eventsOf(a: TestAccount, query: string, count: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await a.api("GET", `/events?${query}`);
    expect(res.status, res.text).toBe(200);
    if (res.body.data.length >= count) return res.body.data as any[];
    if (Date.now() > deadline) throw new Error(`expected ${count} events for ${query}: ${res.text.slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function setup(a: TestAccount) {
  const trackable = (await a.api("POST", "/trackables", { name: "Van 7", type: "vehicle" })).body;
  const circle = (await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200 })).body;
  const polygon = (await a.api("POST", "/geofences", { name: "Yard", shape: "polygon", geometry: U })).body;
  return { trackable, circle, polygon };
}

const post = (a: TestAccount, id: string, body: unknown) => a.api("POST", `/trackables/${id}/locations`, body);

securitySuite("GET /events", { method: "GET", path: () => "/events" }, { tenancy: false });
securitySuite("GET /events/{eventId}", {
  method: "GET",
  path: async (o) => {
    const { trackable } = await setup(o);
    await post(o, trackable.id, { ...INSIDE, timestamp: "2026-11-22T08:00:00.000Z" });
    return `/events/${(await eventsOf(o, "type=geofence.entry", 1))[0].id}`;
  },
});
securitySuite("GET /geofences/{geofence_id}/occupants", { method: "GET", path: async (o) => `/geofences/${(await setup(o)).circle.id}/occupants` });
securitySuite("GET /trackables/{trackableId}/geofences", { method: "GET", path: async (o) => `/trackables/${(await setup(o)).trackable.id}/geofences` });

describe("event log", () => {
  for (const plan of ["free", "enterprise"] as const) {
    it(`records entries, exits, battery.low and device.status_changed on the ${plan} plan`, async () => {
      const a = await newAccount({ plan });
      const { trackable, circle, polygon } = await setup(a);
      expect((await post(a, trackable.id, {
        locations: [
          { ...OUTSIDE, timestamp: "2026-11-22T08:00:00.000Z", battery: 50 },
          { ...INSIDE, accuracy: 5, timestamp: "2026-11-22T08:01:00.000Z" },
          { ...IN_NOTCH, timestamp: "2026-11-22T08:02:00.000Z" },
          { ...IN_ARM, accuracy: 5000, timestamp: "2026-11-22T08:03:00.000Z", battery: 10 },
        ],
      })).status).toBe(201);
      // The jumps between these points also make a trip (lib/motion): its events are tested in motion.test.ts.
      const events = (await eventsOf(a, `trackableId=${trackable.id}`, 6)).filter((e) => !e.type.startsWith("trip."));
      // device.status_changed is dated by the server's clock (the time the points were received): the newest.
      expect(events.map((e) => [e.type, e.geofenceId, e.occurredAt, e.reason, e.durationSeconds, e.confidence])).toEqual([
        ["device.status_changed", null, expect.stringMatching(ISO), null, null, null],
        ["battery.low", null, "2026-11-22T08:03:00.000Z", null, null, null],
        ["geofence.entry", polygon.id, "2026-11-22T08:03:00.000Z", "crossing", null, "low"],
        // Outside the concave polygon (its notch), but inside its bounding circle: no entry. Leaving the circle: exit.
        ["geofence.exit", circle.id, "2026-11-22T08:02:00.000Z", "crossing", 60, null],
        ["geofence.entry", circle.id, "2026-11-22T08:01:00.000Z", "crossing", null, "high"],
      ]);
      const entry = events[4];
      expect(entry).toEqual({
        id: expect.any(String),
        type: "geofence.entry",
        trackableId: trackable.id,
        geofenceId: circle.id,
        occurredAt: "2026-11-22T08:01:00.000Z",
        location: { ...INSIDE, accuracy: 5, timestamp: "2026-11-22T08:01:00.000Z" },
        reason: "crossing",
        durationSeconds: null,
        confidence: "high",
        // Each point is kilometres from the one before: the trackable is on a trip.
        tripId: expect.any(String),
        createdAt: expect.stringMatching(ISO),
      });
      expect((await a.api("GET", `/events/${entry.id}`)).body).toEqual(entry);
      expect(events[1].location).toMatchObject({ ...IN_ARM, accuracy: 5000 });
      expect(events[0].location).toBeNull();

      // Occupancy: inside the polygon now, not the circle.
      expect((await a.api("GET", `/geofences/${polygon.id}`)).body.occupantCount).toBe(1);
      expect((await a.api("GET", `/geofences/${circle.id}`)).body.occupantCount).toBe(0);
      expect((await a.api("GET", `/geofences/${polygon.id}/occupants`)).body).toEqual({
        data: [{ trackableId: trackable.id, name: "Van 7", type: "vehicle", enteredAt: "2026-11-22T08:03:00.000Z" }],
        nextCursor: null,
      });
      expect((await a.api("GET", `/geofences/${circle.id}/occupants`)).body).toEqual({ data: [], nextCursor: null });
      expect((await a.api("GET", `/trackables/${trackable.id}/geofences`)).body).toEqual({
        data: [{ geofenceId: polygon.id, name: "Yard", enteredAt: "2026-11-22T08:03:00.000Z" }],
        nextCursor: null,
      });
      const listed = (await a.api("GET", "/geofences")).body.data;
      expect(listed.map((g: any) => [g.id, g.occupantCount])).toEqual([[polygon.id, 1], [circle.id, 0]]);
    });
  }

  it("filters by type, geofence and time, and pages newest first with a cursor", async () => {
    const a = await newAccount({ plan: "free" });
    const { trackable, circle } = await setup(a);
    const locations = [];
    for (let i = 0; i < 6; i++) locations.push({ ...(i % 2 ? INSIDE : OUTSIDE), timestamp: `2026-11-22T10:0${i}:00.000Z` });
    await post(a, trackable.id, { locations });
    const full = await eventsOf(a, `geofenceId=${circle.id}`, 5);
    expect(full.map((e) => [e.type, e.occurredAt])).toEqual([
      ["geofence.entry", "2026-11-22T10:05:00.000Z"],
      ["geofence.exit", "2026-11-22T10:04:00.000Z"],
      ["geofence.entry", "2026-11-22T10:03:00.000Z"],
      ["geofence.exit", "2026-11-22T10:02:00.000Z"],
      ["geofence.entry", "2026-11-22T10:01:00.000Z"],
    ]);
    const entries = (await a.api("GET", "/events?type=geofence.entry")).body.data;
    expect(entries.map((e: any) => e.occurredAt)).toEqual(["2026-11-22T10:05:00.000Z", "2026-11-22T10:03:00.000Z", "2026-11-22T10:01:00.000Z"]);
    const window = (await a.api("GET", `/events?geofenceId=${circle.id}&from=2026-11-22T10:02:00.000Z&to=2026-11-22T10:04:00.000Z`)).body.data;
    expect(window.map((e: any) => e.occurredAt)).toEqual(["2026-11-22T10:04:00.000Z", "2026-11-22T10:03:00.000Z", "2026-11-22T10:02:00.000Z"]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await a.api("GET", `/events?geofenceId=${circle.id}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...res.body.data.map((e: any) => e.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(full.map((e) => e.id));
    expect((await a.api("GET", `/events?trackableId=${NIL_V4}`)).body).toEqual({ data: [], nextCursor: null });
  });

  it("validates the query and 404s unknown, malformed and other accounts' ids", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const { trackable, circle } = await setup(a);
    await post(a, trackable.id, { ...INSIDE, timestamp: "2026-11-22T11:00:00.000Z" });
    const [entry] = await eventsOf(a, "type=geofence.entry", 1);
    for (const q of ["type=geofence.enter", "trackableId=nope", "geofenceId=1", "from=yesterday", "limit=0", "limit=101", "cursor=garbage!!"]) {
      const res = await a.api("GET", `/events?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message, q).toContain(q.split("=")[0]);
    }
    for (const id of [NIL_V4, "not-a-uuid", entry.id]) expect((await b.api("GET", `/events/${id}`)).status, id).toBe(404);
    expect((await b.api("GET", "/events")).body.data).toEqual([]);
    expect((await b.api("GET", `/events?trackableId=${trackable.id}`)).body.data).toEqual([]);
    expect((await b.api("GET", `/geofences/${circle.id}/occupants`)).status).toBe(404);
    expect((await b.api("GET", `/trackables/${trackable.id}/geofences`)).status).toBe(404);
    expect((await a.api("GET", `/geofences/${NIL_V4}/occupants`)).status).toBe(404);
    expect((await a.api("GET", "/events/%20")).status).toBe(400);
    expect((await a.api("POST", "/events", {})).status).toBe(405);
  });

  it("unassigning a trackable empties its occupancy of that geofence", async () => {
    const a = await newAccount({ plan: "free" });
    const { trackable, circle } = await setup(a);
    const other = (await a.api("POST", "/trackables", { name: "Other" })).body;
    await post(a, trackable.id, { ...INSIDE, timestamp: "2026-11-22T12:00:00.000Z" });
    await eventsOf(a, "type=geofence.entry", 1);
    expect((await a.api("GET", `/geofences/${circle.id}`)).body.occupantCount).toBe(1);
    const patched = await a.api("PATCH", `/geofences/${circle.id}`, { trackableIds: [other.id] });
    expect(patched.body.occupantCount).toBe(0);
    expect((await a.api("GET", `/trackables/${trackable.id}/geofences`)).body.data).toEqual([]);
  });
});

describe("noise settings, end to end", () => {
  it("debounce across posts dates the entry at the first inside point; dwell once per visit; maxAccuracy ignores poor fixes", async () => {
    const a = await newAccount({ plan: "free" });
    const trackable = (await a.api("POST", "/trackables", { name: "Van" })).body;
    const g = (await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200, debounceSeconds: 60, dwellSeconds: 120, maxAccuracy: 50 })).body;
    await post(a, trackable.id, { locations: [{ ...OUTSIDE, timestamp: "2026-11-22T13:00:00.000Z" }, { ...INSIDE, accuracy: 10, timestamp: "2026-11-22T13:01:00.000Z" }] });
    // A poor fix outside does not cancel the pending entry; the next good one, 60 s after the first inside, confirms it.
    await post(a, trackable.id, { ...OUTSIDE, accuracy: 500, timestamp: "2026-11-22T13:01:30.000Z" });
    await post(a, trackable.id, { ...INSIDE, timestamp: "2026-11-22T13:02:00.000Z" });
    const [entry] = await eventsOf(a, `geofenceId=${g.id}&type=geofence.entry`, 1);
    expect(entry).toMatchObject({ occurredAt: "2026-11-22T13:01:00.000Z", location: { accuracy: 10, timestamp: "2026-11-22T13:01:00.000Z" }, reason: "crossing" });
    await post(a, trackable.id, { locations: [{ ...INSIDE, timestamp: "2026-11-22T13:03:30.000Z" }, { ...INSIDE, timestamp: "2026-11-22T13:04:00.000Z" }] });
    const [dwell] = await eventsOf(a, `geofenceId=${g.id}&type=geofence.dwell`, 1);
    expect(dwell).toMatchObject({ occurredAt: "2026-11-22T13:03:30.000Z", reason: "dwell", durationSeconds: 150, confidence: null });
    // A 30 s excursion (shorter than the debounce) emits nothing; a long one exits, dated at its first outside point.
    await post(a, trackable.id, { locations: [{ ...OUTSIDE, timestamp: "2026-11-22T13:05:00.000Z" }, { ...INSIDE, timestamp: "2026-11-22T13:05:30.000Z" }] });
    await post(a, trackable.id, { locations: [{ ...OUTSIDE, timestamp: "2026-11-22T13:06:00.000Z" }, { ...OUTSIDE, timestamp: "2026-11-22T13:07:00.000Z" }] });
    const [exit] = await eventsOf(a, `geofenceId=${g.id}&type=geofence.exit`, 1);
    expect(exit).toMatchObject({ occurredAt: "2026-11-22T13:06:00.000Z", durationSeconds: 300 });
    const all = (await a.api("GET", `/events?geofenceId=${g.id}`)).body.data;
    expect(all.map((e: any) => e.type)).toEqual(["geofence.exit", "geofence.dwell", "geofence.entry"]);
  });

  it("concurrent posts of one trackable never emit the same transition twice", async () => {
    const a = await newAccount({ plan: "free" });
    const trackable = (await a.api("POST", "/trackables", { name: "Van" })).body;
    const g = (await a.api("POST", "/geofences", { name: "Depot", ...CENTER, radius: 200, debounceSeconds: 5 })).body;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(a, trackable.id, { ...INSIDE, timestamp: new Date(Date.parse("2026-11-22T14:00:00.000Z") + i * 1000).toISOString() })),
    );
    await eventsOf(a, `geofenceId=${g.id}`, 1);
    // Let every evaluation finish: the trackable's last point is evaluated when its state cursor reaches it.
    const deadline = Date.now() + 10_000;
    while ((await a.api("GET", `/geofences/${g.id}`)).body.occupantCount !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 1000));
    // Posts may be evaluated in any order (an older point after a newer one is stale), but only one entry is emitted.
    const all = (await a.api("GET", `/events?geofenceId=${g.id}`)).body.data;
    expect(all.map((e: any) => e.type)).toEqual(["geofence.entry"]);
  });
});
