import { describe, expect, it } from "vitest";
import { expectError, newDevice, send, storedLocations } from "../support/devices";

// Overland for iOS (aaronpk/Overland-iOS, README "API"): POST with "Authorization: Bearer <access token>" and
// "Content-Type: application/json", body {"locations": [GeoJSON Point Feature…], "current"?, "trip"?}; the app
// deletes a batch from its queue only when the reply is {"result":"ok"}.

/** The README's example feature ("POST /api HTTP/1.1 … timestamp 2015-10-01T08:00:00-0700"), with overrides. */
function feature(lon: number, lat: number, props: Record<string, unknown> = {}) {
  return {
    type: "Feature",
    geometry: { type: "Point", coordinates: [lon, lat] },
    properties: {
      timestamp: "2015-10-01T08:00:00-0700",
      altitude: 0,
      speed: 4,
      horizontal_accuracy: 30,
      vertical_accuracy: -1,
      motion: ["driving", "stationary"],
      pauses: false,
      activity: "other_navigation",
      desired_accuracy: 100,
      deferred: 1000,
      significant_change: "disabled",
      locations_in_payload: 1,
      battery_state: "charging",
      battery_level: 0.8,
      device_id: "",
      wifi: "",
      ...props,
    },
  };
}

const post = (token: string | null, body: unknown, headers: Record<string, string> = {}) =>
  send("POST", "/ingest/overland", {
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("POST /ingest/overland", () => {
  it("stores the README's example batch field by field and replies {\"result\":\"ok\"} once stored", async () => {
    const { account, trackableId, token } = await newDevice();
    const res = await post(token, { locations: [feature(-122.030581, 37.3318)] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ result: "ok" });
    expect(res.headers.get("content-type")).toContain("application/json");
    const [stored, ...rest] = await storedLocations(account, trackableId);
    expect(rest).toEqual([]);
    expect(stored).toEqual({
      id: expect.any(String),
      trackableId,
      latitude: 37.3318, // coordinates[1]
      longitude: -122.030581, // coordinates[0]
      accuracy: 30, // horizontal_accuracy, metres
      altitude: 0, // metres
      speed: 4, // m/s
      heading: null, // no course in the example
      battery: 80, // battery_level 0.8 → percent
      timestamp: "2015-10-01T15:00:00.000Z", // -0700 (no colon, as Overland writes it)
      receivedAt: expect.any(String),
      source: "overland",
    });
  });

  it("a batch goes in as one request in order, with course, negative speed/course/battery as unknown, and current/trip ignored", async () => {
    const { account, trackableId, token } = await newDevice();
    const base = Date.now() - 10 * 60_000;
    const at = (i: number) => new Date(base + i * 60_000).toISOString().replace(".000Z", "Z");
    const locations = [
      feature(13.4, 52.5, { timestamp: at(0), course: 90.5, speed: 1.5, battery_level: 0.79 }),
      feature(13.41, 52.51, { timestamp: at(1), course: -1, speed: -1, battery_level: -1, altitude: 41.2, horizontal_accuracy: 5 }),
      feature(13.42, 52.52, { timestamp: at(2) }),
    ];
    const res = await post(token, { locations, current: locations[2], trip: { mode: "car", start: at(0) } });
    expect(res.json).toEqual({ result: "ok" });
    const stored = await storedLocations(account, trackableId);
    expect(stored.map((l) => [l.timestamp, l.latitude, l.longitude, l.speed, l.heading, l.battery, l.altitude, l.accuracy])).toEqual([
      [new Date(base).toISOString(), 52.5, 13.4, 1.5, 90.5, 79, 0, 30],
      [new Date(base + 60_000).toISOString(), 52.51, 13.41, null, null, null, 41.2, 5],
      [new Date(base + 120_000).toISOString(), 52.52, 13.42, 4, null, 80, 0, 30],
    ]);
  });

  it("points without a valid position or time are skipped, never the batch; the reply is still ok (Overland would otherwise resend them for ever)", async () => {
    const { account, trackableId, token } = await newDevice();
    const ok = feature(2.35, 48.85, { timestamp: "2026-01-01T10:00:00Z" });
    const locations = [
      feature(2.35, 95, { timestamp: "2026-01-01T10:01:00Z" }), // latitude out of range
      feature(2.35, 48.86, { timestamp: "yesterday" }),
      feature(2.35, 48.86, { timestamp: undefined }),
      feature(2.35, 48.86, { timestamp: "2026-01-01T10:02:00Z", horizontal_accuracy: -1 }), // CoreLocation: coordinates invalid
      feature(2.35, 48.86, { timestamp: "1970-01-01T00:00:00Z" }), // an unset clock's time
      feature(2.35, 48.86, { timestamp: "+275760-09-13T00:00:00.001Z" }), // beyond any date: no 500
      { type: "Feature", geometry: { type: "LineString", coordinates: [[2, 48], [3, 49]] }, properties: { timestamp: "2026-01-01T10:04:00Z" } },
      { type: "Feature", geometry: { type: "Point", coordinates: ["2.35", 48.86] }, properties: { timestamp: "2026-01-01T10:05:00Z" } },
      { type: "Feature", properties: { timestamp: "2026-01-01T10:06:00Z" } },
      "not a feature",
      null,
      ok,
    ];
    const res = await post(token, { locations });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ result: "ok" });
    expect((await storedLocations(account, trackableId)).map((l) => [l.timestamp, l.latitude])).toEqual([["2026-01-01T10:00:00.000Z", 48.85]]);
    // An empty batch, and a batch of nothing valid: ok, nothing more stored.
    expect((await post(token, { locations: [] })).json).toEqual({ result: "ok" });
    expect((await post(token, { locations: [null] })).json).toEqual({ result: "ok" });
    expect(await storedLocations(account, trackableId)).toHaveLength(1);
  });

  it("a course of 360 ((int)round(course) from 359.5°) is stored as heading 0; any other field it cannot store is null, the point kept", async () => {
    const { account, trackableId, token } = await newDevice();
    const locations = [
      feature(2.35, 48.86, { timestamp: "2026-01-01T10:00:00Z", course: 360 }),
      feature(2.35, 48.87, { timestamp: "2026-01-01T10:01:00Z", battery_level: 3, course: 361 }),
      feature(2.35, 48.88, { timestamp: "2026-01-01T10:02:00Z", speed: 200_000, altitude: "high", horizontal_accuracy: 2_000_000 }),
    ];
    const res = await post(token, { locations });
    expect(res.json).toEqual({ result: "ok" });
    const stored = await storedLocations(account, trackableId);
    expect(stored.map((l) => [l.latitude, l.heading, l.battery, l.speed, l.altitude, l.accuracy])).toEqual([
      [48.86, 0, 80, 4, 0, 30],
      [48.87, null, null, 4, 0, 30],
      [48.88, null, 80, null, null, null],
    ]);
  });

  it("a batch resent after a lost reply is stored once, also when two resends race; ?token= works as well", async () => {
    const { account, trackableId, token } = await newDevice();
    const batch = { locations: [1, 2, 3].map((i) => feature(10 + i / 100, 50, { timestamp: `2026-02-01T10:0${i}:00Z` })) };
    expect((await post(token, batch)).json).toEqual({ result: "ok" });
    const resent = { locations: [...batch.locations, feature(10.05, 50, { timestamp: "2026-02-01T10:05:00Z" })] };
    const [a, b] = await Promise.all([
      post(token, resent),
      send("POST", `/ingest/overland?token=${token}`, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(resent) }),
    ]);
    expect([a.json, b.json]).toEqual([{ result: "ok" }, { result: "ok" }]);
    expect((await storedLocations(account, trackableId)).map((l) => l.longitude)).toEqual([10.01, 10.02, 10.03, 10.05]);
  });

  it("bad requests: 400 for garbage or a body without locations, 415 for other content types, 401 without a valid token; nothing stored", async () => {
    const { account, trackableId, token } = await newDevice();
    const valid = { locations: [feature(1, 1)] };
    for (const [body, message] of [
      ["", "required"],
      ["{\"locations\": [", "not valid JSON"],
      ["[]", "must be a JSON object"],
      [JSON.stringify({ type: "FeatureCollection", features: [feature(1, 1)] }), "locations"],
      [JSON.stringify({ locations: { 0: feature(1, 1) } }), "locations"],
      [JSON.stringify({ locations: Array.from({ length: 1001 }, () => null) }), "at most 1000"],
    ] as const) {
      const res = await post(token, body);
      expectError(res, 400, "invalid_request");
      expect(res.json.error.message).toContain(message);
    }
    const huge = JSON.stringify({ locations: [feature(1, 1, { wifi: "x".repeat(1024 * 1024) })] });
    expectError(await post(token, huge), 413, "payload_too_large");
    expectError(await post(token, JSON.stringify(valid), { "Content-Type": "text/plain" }), 415, "unsupported_media_type");
    expectError(await post(token, "locations=1", { "Content-Type": "application/x-www-form-urlencoded" }), 415, "unsupported_media_type");
    const anonymous = await post(null, valid);
    expectError(anonymous, 401, "unauthorized");
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expectError(await post("fldev" + "A".repeat(32), valid), 401, "unauthorized");
    expectError(await send("GET", `/ingest/overland?token=${token}`), 405, "method_not_allowed");
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });
});
