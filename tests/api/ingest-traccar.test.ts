import { describe, expect, it } from "vitest";
import { expectError, newDevice, send, storedLocations } from "../support/devices";

// The OsmAnd protocol as Traccar's server decodes it (traccar/traccar, src/main/java/org/traccar/protocol/
// OsmAndProtocolDecoder.java and its OsmAndProtocolDecoderTest), sent by three apps:
// - Traccar Client for Android up to 8.x: ProtocolFormatter.formatRequest (traccar/traccar-client-android) appends
//   id, timestamp (s), lat, lon, speed (knots: Position.kt multiplies m/s by 1.943844), bearing, altitude, accuracy
//   and batt to the server URL, and RequestManager POSTs it with no body and no Content-Type;
// - Traccar Client 9 (traccar/traccar-client, Flutter): JSON with Content-Type application/json — the bodies below are
//   OsmAndProtocolDecoderTest.testDecodeJson's, where -1 means "unknown" for speed, heading and battery level;
// - GPSLogger's custom URL (mendhak/gpslogger, CustomUrlManager.getFormattedTextblock; values as its
//   CustomUrlManagerTest fills them in: %TIME is URL-encoded ISO 8601 UTC, %BATT percent, %DIR degrees).
// The reply is 200 with an empty body.

const KNOT = 1852 / 3600;
const nowS = () => Math.floor(Date.now() / 1000);

describe("GET|POST /ingest/traccar", () => {
  it("Traccar Client (Android ≤ 8): the query string of ProtocolFormatter, POSTed with an empty body; knots → m/s", async () => {
    const { account, trackableId, token } = await newDevice();
    const ts = nowS() - 20;
    const query = `id=${token}&timestamp=${ts}&lat=52.5200066&lon=13.404954&speed=40.0&bearing=7.19889788244&altitude=34.5&accuracy=12.0&batt=87.0&charge=true`;
    const res = await send("POST", `/ingest/traccar?${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe("");
    const [stored, ...rest] = await storedLocations(account, trackableId);
    expect(rest).toEqual([]);
    expect(stored).toEqual({
      id: expect.any(String),
      trackableId,
      latitude: 52.5200066,
      longitude: 13.404954,
      accuracy: 12, // metres
      altitude: 34.5, // metres
      speed: expect.closeTo(40 * KNOT, 9), // knots → m/s (20.58)
      heading: 7.19889788244, // bearing, degrees
      battery: 87, // batt, percent
      timestamp: new Date(ts * 1000).toISOString(), // Unix seconds
      receivedAt: expect.any(String),
      source: "traccar",
    });
  });

  it("OsmAnd and the decoder's other query forms: milliseconds, ISO 8601, location=lat,lon, deviceid + heading, no timestamp", async () => {
    const { account, trackableId, token } = await newDevice();
    const ms = Date.now() - 60_000;
    const requests = [
      // OsmAnd's online tracking (decoder test: "timestamp=1442068686579&hdop=6.0&altitude=224.0&speed=0.0"), as a GET.
      `id=${token}&lat=42.06288&lon=-88.23412&timestamp=${ms}&hdop=6.0&altitude=224.0&speed=0.0`,
      // "timestamp=2016-01-27T18%3A55%3A47Z"
      `id=${token}&lat=42.06288&lon=-88.23412&timestamp=2016-01-27T18%3A55%3A47Z&hdop=6.0&altitude=224.0&speed=0.0`,
      // "id=123456&timestamp=1377177267&location=60.0,30.0"
      `id=${token}&timestamp=1377177267&location=60.0,30.0`,
      // "lat=60.0&lon=30.0&speed=0.0&heading=0.0&vacc=0&hacc=0&altitude=0&deviceid=123456" (no timestamp: time received)
      `lat=60.0&lon=30.5&speed=0.0&heading=90.0&vacc=0&hacc=0&altitude=0&deviceid=${token}`,
    ];
    const before = Date.now();
    for (const q of requests) {
      const res = await send("GET", `/ingest/traccar?${q}`);
      expect(res.status, `${q}: ${res.text}`).toBe(200);
    }
    const stored = await storedLocations(account, trackableId);
    expect(stored.map((l) => [l.timestamp, l.latitude, l.longitude, l.altitude, l.speed, l.heading])).toEqual([
      ["2013-08-22T13:14:27.000Z", 60, 30, null, null, null],
      ["2016-01-27T18:55:47.000Z", 42.06288, -88.23412, 224, 0, null],
      [new Date(ms).toISOString(), 42.06288, -88.23412, 224, 0, null],
      [expect.any(String), 60, 30.5, 0, 0, 90],
    ]);
    expect(Date.parse(stored[3].timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(stored[3].timestamp).toBe(stored[3].receivedAt);
  });

  it("Traccar Client 9's JSON (the decoder test's Android body): m/s kept, battery level 0–1 → percent, -1 heading unknown", async () => {
    const { account, trackableId, token } = await newDevice();
    const body = {
      location: {
        timestamp: "2025-06-15T13:45:12.862Z",
        coords: { latitude: 37.4219983, longitude: -122.084, accuracy: 5, speed: 0, heading: -1, altitude: 5 },
        is_moving: false,
        odometer: 0,
        event: "motionchange",
        battery: { level: 1, is_charging: false },
        activity: { type: "still" },
        extras: {},
        _: `&id=${token}&lat=37.4219983&lon=-122.084&timestamp=2025-06-15T13:45:12.862Z&`,
      },
      device_id: token,
    };
    const res = await send("POST", "/ingest/traccar", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe("");
    const [stored] = await storedLocations(account, trackableId);
    expect(stored).toEqual({
      id: expect.any(String),
      trackableId,
      latitude: 37.4219983,
      longitude: -122.084,
      accuracy: 5,
      altitude: 5,
      speed: 0, // m/s as sent
      heading: null, // -1: unknown
      battery: 100, // level 1 → 100 %
      timestamp: "2025-06-15T13:45:12.862Z",
      receivedAt: expect.any(String),
      source: "traccar",
    });
  });

  it("Traccar Client 9's JSON from iOS (mock location: speed, heading and battery all -1) and a moving one (level 0.79)", async () => {
    const { account, trackableId, token } = await newDevice();
    const ios = {
      location: {
        extras: {},
        mock: true,
        coords: {
          speed_accuracy: -1,
          speed: -1,
          longitude: -122.406417,
          ellipsoidal_altitude: 0,
          floor: null,
          heading_accuracy: -1,
          latitude: 37.785834000000001,
          accuracy: 5,
          altitude_accuracy: -1,
          altitude: 0,
          heading: -1,
        },
        is_moving: false,
        age: 188,
        odometer: 0,
        uuid: "2FB04C65-99CF-42AB-8DD3-EBCB4B108BF8",
        event: "motionchange",
        battery: { level: -1, is_charging: false },
        activity: { type: "unknown", confidence: 100 },
        timestamp: "2025-05-09T04:11:30.579Z",
      },
      device_id: token,
    };
    const moving = {
      location: {
        event: "motionchange",
        is_moving: false,
        uuid: "0e9a2473-a9a7-4c00-997b-fb97d2154e75",
        timestamp: "2021-07-21T08:06:34.444Z",
        odometer: 0,
        coords: { latitude: -6.1148096, longitude: 106.6837015, accuracy: 3.8, speed: 18.67, speed_accuracy: 0.26, heading: 63, heading_accuracy: 0.28, altitude: 35.7, altitude_accuracy: 3.8 },
        activity: { type: "still", confidence: 100 },
        battery: { is_charging: false, level: 0.79 },
        extras: {},
      },
      device_id: token,
    };
    for (const body of [ios, moving]) {
      const res = await send("POST", "/ingest/traccar", { headers: { "Content-Type": "application/json; charset=utf-8" }, body: JSON.stringify(body) });
      expect(res.status, res.text).toBe(200);
    }
    const [first, second] = await storedLocations(account, trackableId);
    expect(first).toMatchObject({ latitude: -6.1148096, longitude: 106.6837015, accuracy: 3.8, altitude: 35.7, speed: 18.67, heading: 63, battery: 79 });
    expect(first.timestamp).toBe("2021-07-21T08:06:34.444Z");
    expect(second).toMatchObject({ latitude: 37.785834, longitude: -122.406417, accuracy: 5, altitude: 0, speed: null, heading: null, battery: null });
  });

  it("GPSLogger: its custom URL with the placeholders filled in, as a GET and as a form POST", async () => {
    const { account, trackableId, token } = await newDevice();
    // URL: <server>/ingest/traccar?id=<token>&lat=%LAT&lon=%LON&timestamp=%TIME&altitude=%ALT&accuracy=%ACC&bearing=%DIR&batt=%BATT
    const filled = "lat=12.193&lon=19.111&timestamp=2016-03-05T19%3A24%3A29.949Z&altitude=45.0&accuracy=8.0&bearing=359.0&batt=91.0";
    const get = await send("GET", `/ingest/traccar?id=${token}&${filled}`, { headers: { "User-Agent": "okhttp/4.12.0" } });
    expect(get.status, get.text).toBe(200);
    // HTTP method POST with the parameters as the body (header "Content-Type: application/x-www-form-urlencoded").
    const form = "lat=12.2&lon=19.2&timestamp=2016-03-05T19%3A25%3A29.949Z&altitude=46.0&accuracy=0.0&bearing=0.0&batt=90.0";
    const post = await send("POST", `/ingest/traccar?id=${token}`, { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    expect(post.status, post.text).toBe(200);
    const stored = await storedLocations(account, trackableId);
    expect(stored.map(({ latitude, longitude, timestamp, altitude, accuracy, heading, battery, speed, source }) => ({
      latitude, longitude, timestamp, altitude, accuracy, heading, battery, speed, source,
    }))).toEqual([
      { latitude: 12.193, longitude: 19.111, timestamp: "2016-03-05T19:24:29.949Z", altitude: 45, accuracy: 8, heading: 359, battery: 91, speed: null, source: "traccar" },
      { latitude: 12.2, longitude: 19.2, timestamp: "2016-03-05T19:25:29.949Z", altitude: 46, accuracy: 0, heading: 0, battery: 90, speed: null, source: "traccar" },
    ]);
  });

  it("Traccar Client 10: the same parameters as a form body (application/x-www-form-urlencoded), speed in knots", async () => {
    const { account, trackableId, token } = await newDevice();
    const ts = nowS() - 15;
    const form = `id=${token}&timestamp=${ts}&lat=52.5200066&lon=13.404954&speed=10.0&bearing=181.5&altitude=34.5&accuracy=4.7&batt=64.0&charge=false`;
    const res = await send("POST", "/ingest/traccar", { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe("");
    const [stored] = await storedLocations(account, trackableId);
    expect(stored).toMatchObject({ speed: expect.closeTo(10 * KNOT, 9), heading: 181.5, battery: 64, timestamp: new Date(ts * 1000).toISOString() });
  });

  it("a bearing or heading of 360 is stored as 0 (north), in the query form and in Traccar Client 9's JSON", async () => {
    const { account, trackableId, token } = await newDevice();
    const ts = nowS() - 30;
    expect((await send("GET", `/ingest/traccar?id=${token}&timestamp=${ts}&lat=3&lon=3&bearing=360`)).status).toBe(200);
    const body = {
      device_id: token,
      location: { timestamp: new Date((ts + 1) * 1000).toISOString(), coords: { latitude: 3, longitude: 3, accuracy: 5, speed: 2, heading: 360, altitude: 5 }, battery: { level: 0.5 } },
    };
    const json = await send("POST", "/ingest/traccar", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(json.status, json.text).toBe(200);
    expect((await storedLocations(account, trackableId)).map((l) => l.heading)).toEqual([0, 0]);
  });

  it("acknowledges and drops a fix dated at or before 1970 or beyond any date (seconds, milliseconds, ISO 8601): 200, nothing stored, never a 500", async () => {
    const { account, trackableId, token } = await newDevice();
    // The apps keep a position until it is answered 200 and resend it: a 400 here would hold up every later one.
    for (const ts of ["100000000000000000", "8640000000000001", "253402300800", "0", "1970-01-01T00%3A00%3A00Z"]) {
      const res = await send("GET", `/ingest/traccar?id=${token}&lat=3&lon=3&timestamp=${ts}`);
      expect(res.status, `${ts}: ${res.text}`).toBe(200);
    }
    const epoch = { device_id: token, location: { timestamp: "1970-01-01T00:00:00.000Z", coords: { latitude: 3, longitude: 3 } } };
    expect((await send("POST", "/ingest/traccar", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(epoch) })).status).toBe(200);
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });

  it("resends are stored once; the form body alone may carry the token", async () => {
    const { account, trackableId, token } = await newDevice();
    const q = `id=${token}&timestamp=${nowS()}&lat=48.1&lon=11.5`;
    const replies = await Promise.all([1, 2, 3].map(() => send("POST", `/ingest/traccar?${q}`)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const body = await send("POST", "/ingest/traccar", { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: q });
    expect(body.status, body.text).toBe(200);
    expect(await storedLocations(account, trackableId)).toHaveLength(1);
  });

  it("a resend of a point stored earlier is dropped, among many stored points and when the API stored it; a new point is not", async () => {
    const { account, trackableId, token } = await newDevice();
    const t0 = nowS() - 3600;
    // A history of 300 points (one post through the API), one of them the point the device sends again below.
    const history = Array.from({ length: 300 }, (_, i) => ({
      latitude: 48 + i / 1000,
      longitude: 11.5,
      timestamp: new Date((t0 + i) * 1000).toISOString(),
    }));
    const posted = await account.api("POST", `/trackables/${trackableId}/locations`, { locations: history });
    expect(posted.status, posted.text).toBe(201);
    // The device sends again the point the API stored at t0 + 150, then points of its own, twice each.
    const again = `id=${token}&timestamp=${t0 + 150}&lat=${48 + 150 / 1000}&lon=11.5`;
    const sameTimeElsewhere = `id=${token}&timestamp=${t0 + 150}&lat=48.9&lon=11.5`;
    const fresh = `id=${token}&timestamp=${t0 + 400}&lat=48.5&lon=11.6`;
    for (const q of [again, sameTimeElsewhere, fresh, sameTimeElsewhere, fresh]) {
      const res = await send("GET", `/ingest/traccar?${q}`);
      expect(res.status, `${q}: ${res.text}`).toBe(200);
    }
    const stored = await storedLocations(account, trackableId);
    expect(stored).toHaveLength(302);
    expect(stored.filter((l) => l.source === "traccar").map((l) => [l.timestamp, l.latitude])).toEqual([
      [new Date((t0 + 150) * 1000).toISOString(), 48.9],
      [new Date((t0 + 400) * 1000).toISOString(), 48.5],
    ]);
  });

  it("bad input: 400 for a missing or invalid position, 415 for other content types, 401 without a token; nothing stored, never a 500", async () => {
    const { account, trackableId, token } = await newDevice();
    const ts = nowS();
    const bad: Array<[string, string]> = [
      [`id=${token}&timestamp=${ts}`, "lat: required"],
      [`id=${token}&lat=52.5&timestamp=${ts}`, "lon: required"],
      [`id=${token}&lat=abc&lon=13.4`, "lat:"],
      [`id=${token}&lat=95&lon=13.4`, "lat:"],
      [`id=${token}&lat=52.5&lon=181`, "lon:"],
      [`id=${token}&location=52.5`, "lon: required"],
      [`id=${token}&location=52.5,13.4,9`, "lat:"],
      [`id=${token}&lat=52.5&lon=13.4&bearing=400`, "bearing:"],
      [`id=${token}&lat=52.5&lon=13.4&batt=150`, "batt:"],
      [`id=${token}&lat=52.5&lon=13.4&accuracy=-5`, "accuracy:"],
      [`id=${token}&lat=52.5&lon=13.4&timestamp=2014-06-04+09%3A10%3A11`, "timestamp:"], // no zone: ambiguous
      [`id=${token}&lat=52.5&lon=13.4&timestamp=${ts + 86_400}`, "timestamp: must not be more than 5 minutes in the future"],
      [`id=${token}&lat=52.5&lon=13.4&timestamp=%2B275760-09-13T00%3A00%3A00.001Z`, "timestamp: must be"], // no date-time at all
    ];
    for (const [query, message] of bad) {
      const res = await send("GET", `/ingest/traccar?${query}`);
      expectError(res, 400, "invalid_request");
      expect(res.json.error.message, query).toContain(message);
    }
    const json = (body: string, type = "application/json") => send("POST", "/ingest/traccar", { headers: { "Content-Type": type }, body });
    const noCoords = await json(JSON.stringify({ device_id: token, location: { timestamp: new Date().toISOString() } }));
    expectError(noCoords, 400, "invalid_request");
    expect(noCoords.json.error.message).toContain("location.coords.latitude: required");
    const noTime = await json(JSON.stringify({ device_id: token, location: { coords: { latitude: 1, longitude: 2 } } }));
    expect(noTime.json.error.message).toContain("location.timestamp: required");
    expectError(await json("{not json"), 400, "invalid_request");
    expectError(await json("[]"), 400, "invalid_request");
    expectError(await json(`id=${token}&lat=1&lon=2`, "text/plain"), 415, "unsupported_media_type");
    expectError(await json(`--x\r\nContent-Disposition: form-data; name="id"\r\n\r\n${token}\r\n--x--`, "multipart/form-data; boundary=x"), 415, "unsupported_media_type");
    expectError(await send("GET", `/ingest/traccar?lat=52.5&lon=13.4`), 401, "unauthorized");
    expectError(await send("GET", `/ingest/traccar?id=123456&lat=52.5&lon=13.4`), 401, "unauthorized");
    expectError(await send("PUT", `/ingest/traccar?id=${token}&lat=52.5&lon=13.4`), 405, "method_not_allowed");
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });
});
