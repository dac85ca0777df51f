import { describe, expect, it } from "vitest";
import { basicAuth, expectError, newDevice, send, storedLocations } from "../support/devices";

// OwnTracks in HTTP mode (https://owntracks.org/booklet/tech/http/): the app POSTs each message as JSON with
// "Content-Type: application/json; charset=utf-8", HTTP Basic credentials from its settings (user name and password,
// sent only when both are set), X-Limit-U / X-Limit-D and its User-Agent: owntracks/android
// project/app/src/main/java/org/owntracks/android/net/http/HttpMessageProcessorEndpoint.kt (getRequest).

const nowS = () => Math.floor(Date.now() / 1000);

/** The extended location message of owntracks/android's ParserTest ("Parser can serialize extended location message"), with a recent fix time. */
const androidLocation = (tst: number) => ({
  _type: "location",
  created_at: tst + 2,
  _id: "dummyTestId",
  batt: 30,
  bs: 2,
  acc: 10,
  vac: 1,
  lat: 50.1,
  lon: 60.2,
  alt: 20,
  vel: 5,
  cog: 56,
  tst,
  m: 1,
  conn: "TestConn",
  inregions: ["Testregion1", "Testregion2"],
  BSSID: "12:34:56:78",
  SSID: "Wifi SSID",
  topic: "owntracks/jane/phone",
});

const androidHeaders = (token: string) => ({
  "Content-Type": "application/json; charset=utf-8",
  Authorization: basicAuth("jane", token),
  "X-Limit-U": "jane",
  "X-Limit-D": "phone",
  "User-Agent": "Owntracks-Android/gms/420503000",
});

const post = (token: string, body: unknown, headers: Record<string, string> = androidHeaders(token)) =>
  send("POST", "/ingest/owntracks", { headers, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("POST /ingest/owntracks", () => {
  it("stores a location exactly as the Android app sends it: units converted field by field, reply [] once stored", async () => {
    const { account, trackableId, token } = await newDevice();
    const tst = nowS() - 30;
    const res = await post(token, androidLocation(tst));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.json).toEqual([]);
    // The reply came after the insert: the point is readable at once.
    const [stored, ...rest] = await storedLocations(account, trackableId);
    expect(rest).toEqual([]);
    expect(stored).toEqual({
      id: expect.any(String),
      trackableId,
      latitude: 50.1,
      longitude: 60.2,
      accuracy: 10, // acc, metres
      altitude: 20, // alt, metres
      speed: expect.closeTo(5 / 3.6, 9), // vel, km/h → m/s
      heading: 56, // cog, degrees
      battery: 30, // batt, percent
      timestamp: new Date(tst * 1000).toISOString(), // tst, Unix seconds of the fix
      receivedAt: expect.any(String),
      source: "owntracks",
    });
  });

  it("takes the token from ?token= when there are no Basic credentials (iOS with only a URL)", async () => {
    const { account, trackableId, token } = await newDevice();
    // The booklet's HTTP test payload (jo _type=location t=u batt=11 lat=… lon=… tid=JJ tst=… topic=…).
    const body = { _type: "location", t: "u", batt: 11, lat: 48.856826, lon: 2.292713, tid: "JJ", tst: nowS(), topic: "owntracks/jane/phone" };
    const res = await post(token, body, { "Content-Type": "application/json" });
    expect(res.status).toBe(401); // no token at all
    const ok = await send("POST", `/ingest/owntracks?token=${token}`, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    expect(ok.status, ok.text).toBe(200);
    const [stored] = await storedLocations(account, trackableId);
    expect(stored).toMatchObject({ latitude: 48.856826, longitude: 2.292713, battery: 11, accuracy: null, altitude: null, speed: null, heading: null });
  });

  it("ignores the Basic user name; absent measures are null; negative vel, cog and batt (iOS's 'unknown') are null", async () => {
    const { account, trackableId, token } = await newDevice();
    const tst = nowS() - 5;
    const res = await post(token, { _type: "location", lat: -33.8688, lon: 151.2093, tst, vel: -1, cog: -1, batt: -1, acc: 65 }, {
      "Content-Type": "application/json",
      Authorization: basicAuth("anything-at-all", token),
    });
    expect(res.status, res.text).toBe(200);
    const [stored] = await storedLocations(account, trackableId);
    expect(stored).toMatchObject({ latitude: -33.8688, longitude: 151.2093, accuracy: 65, altitude: null, speed: null, heading: null, battery: null });
  });

  it("stores nothing for other message types and for the empty body, and still answers 200 []", async () => {
    const { account, trackableId, token } = await newDevice();
    const messages = [
      { _type: "lwt", tst: nowS() },
      { _type: "transition", wtst: nowS() - 100, lat: 50.1, lon: 60.2, tst: nowS(), acc: 10, tid: "ph", event: "enter", desc: "Home", t: "c" },
      { _type: "waypoint", desc: "Home", lat: 50.1, lon: 60.2, rad: 100, tst: nowS() },
      { _type: "status", android: { hib: 0 } },
      { _type: "encrypted", data: "8Q7Aq0E0JtqHbA==" },
    ];
    for (const m of messages) {
      const res = await post(token, m);
      expect(res.status, `${m._type}: ${res.text}`).toBe(200);
      expect(res.json).toEqual([]);
    }
    const empty = await post(token, "");
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual([]);
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });

  it("a resent location is stored once, and both posts succeed (the app resends when a reply was lost)", async () => {
    const { account, trackableId, token } = await newDevice();
    const message = androidLocation(nowS() - 10);
    expect((await post(token, message)).status).toBe(200);
    expect((await post(token, message)).status).toBe(200);
    // Two resends at once: the second waits for the first and finds its point.
    const [a, b] = await Promise.all([post(token, { ...message, tst: message.tst + 1 }), post(token, { ...message, tst: message.tst + 1 })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await storedLocations(account, trackableId)).map((l) => l.timestamp)).toEqual([
      new Date(message.tst * 1000).toISOString(),
      new Date((message.tst + 1) * 1000).toISOString(),
    ]);
  });

  it("401 for a missing, unknown or revoked token, with a Basic challenge; nothing stored", async () => {
    const { account, trackableId, token, tokenId } = await newDevice();
    const message = androidLocation(nowS());
    const none = await post(token, message, { "Content-Type": "application/json" });
    expectError(none, 401, "unauthorized");
    expect(none.headers.get("www-authenticate")).toMatch(/^Basic realm="Fenceline"/);
    // One character changed (never to the one it already was: a token ending in "x" made this pass as valid).
    const altered = `${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`;
    expectError(await post(token, message, androidHeaders(altered)), 401, "unauthorized");
    expectError(await post(token, message, androidHeaders(account.key)), 401, "unauthorized"); // an API key is not a device token
    expect((await account.api("DELETE", `/trackables/${trackableId}/device-tokens/${tokenId}`)).status).toBe(204);
    expectError(await post(token, message), 401, "unauthorized");
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });

  it("bad input: 400 for a location without a position or out of range, garbage or non-object JSON; nothing stored", async () => {
    const { account, trackableId, token } = await newDevice();
    const tst = nowS();
    const cases: Array<[string, unknown, number, string]> = [
      ["no lat", { _type: "location", lon: 60.2, tst }, 400, "lat: required"],
      ["no lon", { _type: "location", lat: 50.1, tst }, 400, "lon: required"],
      ["no tst", { _type: "location", lat: 50.1, lon: 60.2 }, 400, "tst: required"],
      ["lat 91", { _type: "location", lat: 91, lon: 60.2, tst }, 400, "lat:"],
      ["lon as a string", { _type: "location", lat: 50.1, lon: "60.2", tst }, 400, "lon:"],
      ["batt 150", { _type: "location", lat: 50.1, lon: 60.2, tst, batt: 150 }, 400, "batt:"],
      ["tst a day ahead", { _type: "location", lat: 50.1, lon: 60.2, tst: tst + 86_400 }, 400, "tst: must not be more than 5 minutes in the future"],
      ["tst as a string", { _type: "location", lat: 50.1, lon: 60.2, tst: "yesterday" }, 400, "tst: must be Unix time in seconds"],
      ["not JSON", "{\"_type\": \"location\", lat", 400, "not valid JSON"],
      ["a JSON array", "[1, 2]", 400, "must be a JSON object"],
    ];
    for (const [label, body, status, message] of cases) {
      const res = await post(token, body);
      expectError(res, status, "invalid_request");
      expect(res.json.error.message, label).toContain(message);
    }
    expectError(await send("GET", `/ingest/owntracks?token=${token}`), 405, "method_not_allowed");
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });

  it('"cog": 360 (iOS formats the course with %.0f, Android rounds it: 359.5° and more) is stored as heading 0, not a 400', async () => {
    const { account, trackableId, token } = await newDevice();
    const tst = nowS() - 20;
    const res = await post(token, { ...androidLocation(tst), cog: 360 });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual([]);
    const [stored] = await storedLocations(account, trackableId);
    expect(stored).toMatchObject({ heading: 0, timestamp: new Date(tst * 1000).toISOString() });
  });

  it('acknowledges and drops a fix dated at or before 1970 ("tst": 0) or beyond any date: 200 [], nothing stored, never a 500', async () => {
    const { account, trackableId, token } = await newDevice();
    // Android retries a message answered 4xx for ever, holding up the queue behind it; no resend makes these valid.
    for (const tst of [0, 1e17, 1e300, 8.64e15 + 1, -1]) {
      const res = await post(token, androidLocation(tst));
      expect(res.status, `${tst}: ${res.text}`).toBe(200);
      expect(res.json).toEqual([]);
    }
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });

  it("reads a JSON body whatever its Content-Type: the booklet's curl --data test (a form content type) stores the point", async () => {
    const { account, trackableId, token } = await newDevice();
    // jo _type=location t=u batt=11 lat=48.856826 lon=2.292713 tid=JJ tst=… topic=owntracks/jane/phone | curl --data @- …
    const body = { _type: "location", t: "u", batt: 11, lat: 48.856826, lon: 2.292713, tid: "JJ", tst: nowS() - 3, topic: "owntracks/jane/phone" };
    const res = await post(token, body, { "Content-Type": "application/x-www-form-urlencoded", Authorization: basicAuth("jane", token) });
    expect(res.status, res.text).toBe(200);
    for (const type of ["text/plain", "multipart/form-data; boundary=x"]) {
      const other = await post(token, { ...body, tst: body.tst + 1 }, { "Content-Type": type, Authorization: basicAuth("jane", token) });
      expect(other.status, `${type}: ${other.text}`).toBe(200);
    }
    expect((await storedLocations(account, trackableId)).map((l) => [l.latitude, l.battery])).toEqual([
      [48.856826, 11],
      [48.856826, 11],
    ]);
    const notJson = await post(token, "lat=48.8&lon=2.29", { "Content-Type": "application/x-www-form-urlencoded", Authorization: basicAuth("jane", token) });
    expectError(notJson, 400, "invalid_request");
  });

  it("a JSON body without a Content-Type is read as JSON", async () => {
    const { account, trackableId, token } = await newDevice();
    const res = await post(token, androidLocation(nowS()), { Authorization: basicAuth("jane", token) });
    expect(res.status, res.text).toBe(200);
    expect(await storedLocations(account, trackableId)).toHaveLength(1);
  });
});
