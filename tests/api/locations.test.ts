import { describe, expect, it } from "vitest";
import { newAccount, type ApiResponse, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Loc {
  id: string;
  trackableId: string;
  latitude: number;
  longitude: number;
  timestamp: string;
  receivedAt: string;
  [k: string]: unknown;
}

async function trackableOf(owner: TestAccount, name = "Tracked") {
  const res = await owner.api("POST", "/trackables", { name });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** A fresh account with one trackable; `path` is its locations collection. */
async function setup() {
  const a = await newAccount();
  const id = await trackableOf(a);
  return { a, id, path: `/trackables/${id}/locations` };
}

const at = (base: number, minutes: number) => new Date(base + minutes * 60_000).toISOString();
const BASE = Date.parse("2026-01-10T12:00:00.000Z");

securitySuite("POST /trackables/{id}/locations", {
  method: "POST",
  path: async (o) => `/trackables/${await trackableOf(o)}/locations`,
  body: { latitude: 52.52, longitude: 13.405 },
});
securitySuite("GET /trackables/{id}/locations", {
  method: "GET",
  path: async (o) => `/trackables/${await trackableOf(o)}/locations`,
});
securitySuite("GET /trackables/{id}/locations/latest", {
  method: "GET",
  path: async (o) => {
    const id = await trackableOf(o);
    expect((await o.api("POST", `/trackables/${id}/locations`, { latitude: 1, longitude: 2 })).status).toBe(201);
    return `/trackables/${id}/locations/latest`;
  },
});

describe("POST locations", () => {
  it("stores one location with every field and returns it in data[]", async () => {
    const { a, id, path } = await setup();
    const before = Date.now();
    const res = await a.api("POST", path, {
      latitude: 52.52,
      longitude: 13.405,
      accuracy: 8.5,
      altitude: -12,
      speed: 3.2,
      heading: 271.5,
      battery: 87,
      timestamp: "2026-01-10T13:00:00.123+01:00",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: [
        {
          id: expect.stringMatching(UUID),
          trackableId: id,
          latitude: 52.52,
          longitude: 13.405,
          accuracy: 8.5,
          altitude: -12,
          speed: 3.2,
          heading: 271.5,
          battery: 87,
          timestamp: "2026-01-10T12:00:00.123Z",
          receivedAt: expect.stringMatching(ISO),
          source: "api",
        },
      ],
    });
    expect(Date.parse(res.body.data[0].receivedAt)).toBeGreaterThanOrEqual(before - 1000);
    const latest = await a.api("GET", `${path}/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual(res.body.data[0]);
  });

  it("defaults: omitted measures are null and the timestamp is the time received", async () => {
    const { a, path } = await setup();
    const before = Date.now();
    const res = await a.api("POST", path, { latitude: -33.9, longitude: 151.2 });
    const after = Date.now();
    expect(res.status).toBe(201);
    const [loc] = res.body.data as Loc[];
    expect(loc).toMatchObject({ accuracy: null, altitude: null, speed: null, heading: null, battery: null });
    expect(loc!.timestamp).toBe(loc!.receivedAt);
    expect(Date.parse(loc!.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(loc!.timestamp)).toBeLessThanOrEqual(after + 1000);
  });

  it("explicit nulls are stored as null", async () => {
    const { a, path } = await setup();
    const res = await a.api("POST", path, {
      latitude: 0,
      longitude: 0,
      accuracy: null,
      altitude: null,
      speed: null,
      heading: null,
      battery: null,
    });
    expect(res.status).toBe(201);
    expect(res.body.data[0]).toMatchObject({ latitude: 0, longitude: 0, accuracy: null, altitude: null, speed: null, heading: null, battery: null });
  });

  it("accepts every boundary value", async () => {
    const { a, path } = await setup();
    const res = await a.api("POST", path, {
      locations: [
        { latitude: 90, longitude: 180, heading: 0, battery: 0, accuracy: 0, speed: 0 },
        { latitude: -90, longitude: -180, heading: 359.999, battery: 100 },
        { latitude: 1, longitude: 1, timestamp: "1970-01-01T00:00:00.001Z" },
        { latitude: 1, longitude: 1, timestamp: new Date(Date.now() + 4 * 60_000 + 50_000).toISOString() },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.map((l: Loc) => [l.latitude, l.longitude])).toEqual([[90, 180], [-90, -180], [1, 1], [1, 1]]);
    expect(res.body.data[1].heading).toBe(359.999);
  });

  it("a heading of 360 (the apps round a course from 359.5° up to whole degrees) is stored and returned as 0", async () => {
    const { a, path } = await setup();
    const res = await a.api("POST", path, { locations: [{ latitude: 1, longitude: 1, heading: 360 }, { latitude: 2, longitude: 2, heading: 359.5 }] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.map((l: Loc) => l.heading)).toEqual([0, 359.5]);
    expect((await a.api("GET", path)).body.data.map((l: Loc) => l.heading).sort()).toEqual([0, 359.5]);
  });

  it("stores a batch of 1000 in one request and returns the 1000 rows in input order", async () => {
    const { a, id, path } = await setup();
    const locations = Array.from({ length: 1000 }, (_, i) => ({
      latitude: -89 + i * 0.178,
      longitude: -179 + i * 0.358,
      battery: i % 101,
      timestamp: new Date(BASE + i * 1000).toISOString(),
    }));
    const res = await a.api("POST", path, { locations });
    expect(res.status).toBe(201);
    const data = res.body.data as Loc[];
    expect(data).toHaveLength(1000);
    data.forEach((l, i) => {
      expect(l.trackableId).toBe(id);
      expect(l.latitude).toBe(locations[i]!.latitude);
      expect(l.longitude).toBe(locations[i]!.longitude);
      expect(l.battery).toBe(locations[i]!.battery);
      expect(l.timestamp).toBe(locations[i]!.timestamp);
    });
    expect(new Set(data.map((l) => l.id)).size).toBe(1000);
    // One receipt time for the whole batch.
    expect(new Set(data.map((l) => l.receivedAt)).size).toBe(1);

    const history = await a.api("GET", `${path}?order=asc&limit=1000`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((l: Loc) => l.id)).toEqual(data.map((l) => l.id));
    expect(history.body.nextCursor).toBeNull();
  });

  it("rejects a timestamp more than 5 minutes in the future, naming the field", async () => {
    const { a, path } = await setup();
    const future = new Date(Date.now() + 5 * 60_000 + 10_000).toISOString();
    const single = await a.api("POST", path, { latitude: 1, longitude: 1, timestamp: future });
    expect(single.status).toBe(400);
    expect(single.body.error).toEqual({
      code: "invalid_request",
      message: "Invalid body: timestamp: must not be more than 5 minutes in the future",
    });
    const ok = { latitude: 1, longitude: 1 };
    const batch = await a.api("POST", path, { locations: [ok, ok, ok, { ...ok, timestamp: future }] });
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toBe("Invalid body: locations[3].timestamp: must not be more than 5 minutes in the future");
    // Nothing of a refused batch is stored.
    expect((await a.api("GET", path)).body.data).toEqual([]);
  });

  it("validates every field of a single location and names each offender", async () => {
    const { a, path } = await setup();
    const ok = { latitude: 10, longitude: 20 };
    const cases: Array<[unknown, string[]]> = [
      [{}, ["latitude", "longitude"]],
      [{ latitude: 1 }, ["longitude"]],
      [{ longitude: 1 }, ["latitude"]],
      [{ latitude: 90.0001, longitude: 0 }, ["latitude"]],
      [{ latitude: -91, longitude: 0 }, ["latitude"]],
      [{ latitude: 0, longitude: 180.5 }, ["longitude"]],
      [{ latitude: 0, longitude: -181 }, ["longitude"]],
      [{ latitude: "1", longitude: 0 }, ["latitude"]],
      [{ latitude: "NaN", longitude: "Infinity" }, ["latitude", "longitude"]],
      [{ latitude: null, longitude: true }, ["latitude", "longitude"]],
      [{ latitude: [1], longitude: { v: 1 } }, ["latitude", "longitude"]],
      [{ ...ok, accuracy: -1 }, ["accuracy"]],
      [{ ...ok, accuracy: "5" }, ["accuracy"]],
      [{ ...ok, altitude: -20_001 }, ["altitude"]],
      [{ ...ok, altitude: "high" }, ["altitude"]],
      [{ ...ok, speed: -0.1 }, ["speed"]],
      [{ ...ok, speed: "NaN" }, ["speed"]],
      [{ ...ok, heading: 360.001 }, ["heading"]],
      [{ ...ok, heading: -0.1 }, ["heading"]],
      [{ ...ok, battery: 100.1 }, ["battery"]],
      [{ ...ok, battery: -1 }, ["battery"]],
      [{ ...ok, battery: "50" }, ["battery"]],
      [{ ...ok, timestamp: "yesterday" }, ["timestamp"]],
      [{ ...ok, timestamp: "2026-02-30T00:00:00Z" }, ["timestamp"]],
      [{ ...ok, timestamp: "2026-01-01T00:00:00" }, ["timestamp"]],
      [{ ...ok, timestamp: "2026-01-01" }, ["timestamp"]],
      [{ ...ok, timestamp: 1767225600000 }, ["timestamp"]],
      [{ ...ok, timestamp: null }, ["timestamp"]],
      [{ ...ok, timestamp: "0000-01-01T00:00:00Z" }, ["timestamp"]],
      [{ ...ok, timestamp: "1969-12-31T23:59:59.999Z" }, ["timestamp"]],
      [{ ...ok, timestamp: "1970-01-01T00:00:00Z" }, ["timestamp: must be after 1970-01-01T00:00:00Z"]], // an unset clock
      [{ ...ok, timestamp: "1970-01-01T01:00:00+01:00" }, ["timestamp: must be after 1970-01-01T00:00:00Z"]],
      [{ ...ok, timestamp: "+275760-09-13T00:00:00.001Z" }, ["timestamp"]], // beyond any date: a 400, not a 500
      [{ ...ok, timestamp: "+275760-09-13T00:00:00.000Z" }, ["timestamp"]],
      [{ ...ok, foo: 1 }, ['unknown field "foo"']],
      [{ ...ok, trackableId: "x", id: "y" }, ['unknown field "trackableId"', 'unknown field "id"']],
      [{ points: [ok] }, ['unknown field "points"', "latitude", "longitude"]],
      [
        { latitude: 100, longitude: 200, accuracy: -1, altitude: -1e9, speed: -1, heading: 400, battery: 101, timestamp: "x", z: 1 },
        ["latitude", "longitude", "accuracy", "altitude", "speed", "heading", "battery", "timestamp", "z"],
      ],
    ];
    for (const [body, fields] of cases) {
      const res = await a.api("POST", path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      for (const f of fields) expect(res.body.error.message, JSON.stringify(body)).toContain(f);
    }
    // JSON has no NaN/Infinity literals; a number too large for a double parses as Infinity and is not finite.
    for (const raw of ['{"latitude": 1e400, "longitude": 0}', '{"latitude": NaN, "longitude": 0}', "[]", '"x"', "{"]) {
      const res = await a.api("POST", path, raw);
      expect(res.status, raw).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect((await a.api("GET", path)).body.data).toEqual([]);
  });

  it("validates a batch, naming the index of each offending item", async () => {
    const { a, path } = await setup();
    const ok = { latitude: 10, longitude: 20 };
    const cases: Array<[unknown, string[]]> = [
      [{ locations: [] }, ["locations: must hold 1–1000 locations"]],
      [{ locations: Array.from({ length: 1001 }, () => ok) }, ["locations: must hold 1–1000 locations"]],
      [{ locations: "x" }, ["locations"]],
      [{ locations: null }, ["locations"]],
      [{ locations: [ok, 5] }, ["locations[1]"]],
      [{ locations: [ok, ok, ok, {}] }, ["locations[3].latitude", "locations[3].longitude"]],
      [
        { locations: [ok, { latitude: 91, longitude: 0 }, ok, ok, ok, ok, ok, ok, ok, ok, ok, ok, { ...ok, battery: -5 }] },
        ["locations[1].latitude", "locations[12].battery"],
      ],
      [{ locations: [{ ...ok, foo: 1 }] }, ['locations[0].foo: unknown field "locations[0].foo"']],
      [{ locations: [ok], latitude: 1 }, ['latitude: unknown field "latitude"']],
      [{ locations: [ok], device: "x" }, ['device: unknown field "device"']],
    ];
    for (const [body, fields] of cases) {
      const res = await a.api("POST", path, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      for (const f of fields) expect(res.body.error.message, JSON.stringify(body).slice(0, 200)).toContain(f);
    }
    // The batch shape's errors only: no union noise about the single-location fields.
    const mixed = await a.api("POST", path, { locations: [ok], latitude: 1 });
    expect(mixed.body.error.message).toBe('Invalid body: latitude: unknown field "latitude"');
    expect((await a.api("GET", path)).body.data).toEqual([]);
  });
});

describe("GET locations (history)", () => {
  it("an empty history; then newest first by default and oldest first with order=asc", async () => {
    const { a, path } = await setup();
    expect((await a.api("GET", path)).body).toEqual({ data: [], nextCursor: null });
    // Sent out of order: history is ordered by timestamp, not by arrival.
    const minutes = [3, 0, 4, 1, 2];
    for (const m of minutes) {
      expect((await a.api("POST", path, { latitude: m, longitude: m, timestamp: at(BASE, m) })).status).toBe(201);
    }
    const desc = await a.api("GET", path);
    expect(desc.status).toBe(200);
    expect(desc.body.data.map((l: Loc) => l.latitude)).toEqual([4, 3, 2, 1, 0]);
    expect(desc.body.nextCursor).toBeNull();
    const latest = await a.api("GET", `${path}/latest`);
    expect(desc.body.data[0]).toEqual(latest.body);
    const asc = await a.api("GET", `${path}?order=asc`);
    expect(asc.body.data.map((l: Loc) => l.latitude)).toEqual([0, 1, 2, 3, 4]);
  });

  it("from and to are inclusive, exactly at a point's timestamp, in any time-zone notation", async () => {
    const { a, path } = await setup();
    const locations = [0, 1, 2, 3, 4].map((m) => ({ latitude: m, longitude: 0, timestamp: at(BASE, m) }));
    expect((await a.api("POST", path, { locations })).status).toBe(201);
    const lats = async (q: string) => {
      const res = await a.api("GET", `${path}?${q}`);
      expect(res.status, q).toBe(200);
      return res.body.data.map((l: Loc) => l.latitude);
    };
    expect(await lats(`from=${at(BASE, 1)}&to=${at(BASE, 3)}`)).toEqual([3, 2, 1]);
    expect(await lats(`from=${at(BASE, 1)}&to=${at(BASE, 3)}&order=asc`)).toEqual([1, 2, 3]);
    expect(await lats(`from=${at(BASE, 2)}&to=${at(BASE, 2)}`)).toEqual([2]);
    expect(await lats(`from=${at(BASE, 3)}`)).toEqual([4, 3]);
    expect(await lats(`to=${at(BASE, 1)}`)).toEqual([1, 0]);
    // One millisecond off excludes the point on the boundary.
    expect(await lats(`from=${new Date(BASE + 60_001).toISOString()}&to=${new Date(BASE + 179_999).toISOString()}`)).toEqual([2]);
    // 13:02+01:00 is 12:02Z.
    expect(await lats(`from=${encodeURIComponent("2026-01-10T13:02:00+01:00")}&to=${encodeURIComponent("2026-01-10T13:02:00.000+01:00")}`)).toEqual([2]);
    expect(await lats(`from=${at(BASE, 10)}`)).toEqual([]);
  });

  for (const order of ["desc", "asc"] as const) {
    it(`pages (${order}) with no gaps or duplicates when many points share one timestamp`, async () => {
      const { a, path } = await setup();
      const same = at(BASE, 5);
      // Three requests: ties within one batch and across batches; points before and after the shared timestamp.
      const batches = [
        [...Array.from({ length: 12 }, (_, i) => ({ latitude: i, longitude: 0, timestamp: same })), { latitude: 50, longitude: 0, timestamp: at(BASE, 1) }],
        Array.from({ length: 9 }, (_, i) => ({ latitude: 20 + i, longitude: 0, timestamp: same })),
        [{ latitude: 60, longitude: 0, timestamp: at(BASE, 9) }, { latitude: 61, longitude: 0, timestamp: at(BASE, 0) }],
      ];
      const stored: Loc[] = [];
      for (const locations of batches) {
        const res = await a.api("POST", path, { locations });
        expect(res.status).toBe(201);
        stored.push(...res.body.data);
      }
      const key = (l: Loc) => `${l.timestamp}|${l.id}`;
      const expected = [...stored].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0)).map((l) => l.id);
      if (order === "desc") expected.reverse();

      const whole = await a.api("GET", `${path}?order=${order}&limit=1000`);
      expect(whole.body.data.map((l: Loc) => l.id)).toEqual(expected);

      for (const limit of [1, 4, 7, 24]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const q: string = `order=${order}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
          const res: ApiResponse = await a.api("GET", `${path}?${q}`);
          expect(res.status, q).toBe(200);
          expect(res.body.data.length).toBeLessThanOrEqual(limit);
          seen.push(...res.body.data.map((l: Loc) => l.id));
          cursor = res.body.nextCursor;
          pages++;
        } while (cursor && pages < 30);
        expect(seen, `limit=${limit}`).toEqual(expected);
        expect(pages).toBe(Math.ceil(expected.length / limit));
      }
    });
  }

  it("pages within from/to, and a cursor keeps working with the same bounds", async () => {
    const { a, path } = await setup();
    const locations = Array.from({ length: 10 }, (_, m) => ({ latitude: m, longitude: 0, timestamp: at(BASE, m) }));
    await a.api("POST", path, { locations });
    const q = `from=${at(BASE, 2)}&to=${at(BASE, 7)}&limit=4`;
    const p1 = await a.api("GET", `${path}?${q}`);
    expect(p1.body.data.map((l: Loc) => l.latitude)).toEqual([7, 6, 5, 4]);
    const p2 = await a.api("GET", `${path}?${q}&cursor=${p1.body.nextCursor}`);
    expect(p2.body).toEqual({ data: expect.any(Array), nextCursor: null });
    expect(p2.body.data.map((l: Loc) => l.latitude)).toEqual([3, 2]);
  });

  it("rejects a cursor made for the other order, a bad cursor, and bad parameters", async () => {
    const { a, path } = await setup();
    await a.api("POST", path, { locations: [0, 1, 2].map((m) => ({ latitude: m, longitude: 0, timestamp: at(BASE, m) })) });
    const descCursor = (await a.api("GET", `${path}?limit=1`)).body.nextCursor as string;
    const ascCursor = (await a.api("GET", `${path}?limit=1&order=asc`)).body.nextCursor as string;
    expect(descCursor).toEqual(expect.any(String));
    for (const q of [`order=asc&cursor=${descCursor}`, `cursor=${ascCursor}`, `order=desc&cursor=${ascCursor}`]) {
      const res = await a.api("GET", `${path}?limit=1&${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toMatch(/cursor.*order=/);
    }
    const forged = Buffer.from(JSON.stringify({ t: "nope", i: "x", o: "desc" })).toString("base64url");
    const bad = [
      "cursor=garbage!!",
      `cursor=${forged}`,
      `cursor=${Buffer.from("[1]").toString("base64url")}`,
      "cursor=",
      "limit=0",
      "limit=1001",
      "limit=abc",
      "limit=1.5",
      "limit=-1",
      "order=sideways",
      "from=yesterday",
      "to=2026-01-01",
      "from=0000-01-01T00:00:00Z",
      `from=${at(BASE, 2)}&to=${at(BASE, 1)}`,
    ];
    for (const q of bad) {
      const res = await a.api("GET", `${path}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      const name = q.startsWith("from=2026") ? "from" : q.split("=")[0]!;
      expect(res.body.error.message, q).toContain(name);
    }
    const reversed = await a.api("GET", `${path}?from=${at(BASE, 2)}&to=${at(BASE, 1)}`);
    expect(reversed.body.error.message).toBe("Invalid query: from: must not be after to");
    // Limit bounds themselves are fine, and unknown parameters are ignored.
    for (const q of ["limit=1", "limit=1000", "order=asc&foo=bar"]) expect((await a.api("GET", `${path}?${q}`)).status, q).toBe(200);
    const one = await a.api("GET", `${path}?limit=1`);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0].latitude).toBe(2);
  });

  it("the default page size is 100", async () => {
    const { a, path } = await setup();
    const locations = Array.from({ length: 150 }, (_, i) => ({ latitude: 0, longitude: 0, timestamp: new Date(BASE + i).toISOString() }));
    await a.api("POST", path, { locations });
    const first = await a.api("GET", path);
    expect(first.body.data).toHaveLength(100);
    expect(first.body.data[0].timestamp).toBe(locations[149]!.timestamp);
    const second = await a.api("GET", `${path}?cursor=${first.body.nextCursor}`);
    expect(second.body.data).toHaveLength(50);
    expect(second.body.nextCursor).toBeNull();
  });
});

describe("latest location and lastLocation", () => {
  it("latest is 404 until the first location, then the greatest (timestamp, id)", async () => {
    const { a, id, path } = await setup();
    const none = await a.api("GET", `${path}/latest`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe("not_found");
    expect(none.body.error.message).toBe(`Trackable ${id} has no locations yet`);

    await a.api("POST", path, { latitude: 1, longitude: 1, timestamp: at(BASE, 10) });
    // Arrives later but is older: not the latest.
    await a.api("POST", path, { latitude: 2, longitude: 2, timestamp: at(BASE, 5) });
    expect((await a.api("GET", `${path}/latest`)).body.latitude).toBe(1);
    // Two points at one timestamp: the greater id (the later one of the batch) wins.
    const tie = await a.api("POST", path, {
      locations: [
        { latitude: 3, longitude: 3, timestamp: at(BASE, 20) },
        { latitude: 4, longitude: 4, timestamp: at(BASE, 20) },
      ],
    });
    const latest = await a.api("GET", `${path}/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual(tie.body.data[1]);
  });

  it("GET /trackables/{id} shows lastLocation: the newest by timestamp, not the last inserted", async () => {
    const { a, id, path } = await setup();
    const newest = (await a.api("POST", path, { latitude: 48.85, longitude: 2.35, timestamp: at(BASE, 30) })).body.data[0];
    await a.api("POST", path, { locations: [{ latitude: 1, longitude: 1, timestamp: at(BASE, 1) }, { latitude: 2, longitude: 2, timestamp: at(BASE, 2) }] });
    const got = await a.api("GET", `/trackables/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.lastLocation).toEqual(newest);
    const listed = await a.api("GET", "/trackables");
    expect(listed.body.data[0].lastLocation).toEqual(newest);
  });
});

describe("locations: paths and tenancy", () => {
  it("a blank trackableId is 400; unknown and malformed ids are 404", async () => {
    const a = await newAccount();
    const calls: Array<[string, string, unknown?]> = [
      ["POST", "/locations", { latitude: 1, longitude: 1 }],
      ["GET", "/locations"],
      ["GET", "/locations/latest"],
    ];
    for (const [method, suffix, body] of calls) {
      const blank = await a.api(method, `/trackables/%20${suffix}`, body);
      expect(blank.status, `${method} ${suffix}`).toBe(400);
      expect(blank.body.error).toEqual({ code: "invalid_request", message: "Missing required parameter: trackableId" });
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const res = await a.api(method, `/trackables/${id}${suffix}`, body);
        expect(res.status, `${method} ${id}${suffix}`).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
    }
    const wrong = await a.api("DELETE", `/trackables/${await trackableOf(a)}/locations`);
    expect(wrong.status).toBe(405);
    expect(wrong.body.error.code).toBe("method_not_allowed");
  });

  it("another account's key gets 404 on all three and stores nothing", async () => {
    const { a, path } = await setup();
    const b = await newAccount();
    await a.api("POST", path, { latitude: 1, longitude: 1 });
    const post = await b.api("POST", path, { latitude: 9, longitude: 9 });
    expect(post.status).toBe(404);
    expect(post.body.error.code).toBe("not_found");
    const batch = await b.api("POST", path, { locations: [{ latitude: 9, longitude: 9 }] });
    expect(batch.status).toBe(404);
    expect((await b.api("GET", path)).status).toBe(404);
    expect((await b.api("GET", `${path}/latest`)).status).toBe(404);
    const own = await a.api("GET", path);
    expect(own.body.data.map((l: Loc) => l.latitude)).toEqual([1]);
  });

  it("deleting a trackable deletes its history", async () => {
    const { a, id, path } = await setup();
    await a.api("POST", path, { latitude: 1, longitude: 1 });
    expect((await a.api("DELETE", `/trackables/${id}`)).status).toBe(204);
    expect((await a.api("GET", path)).status).toBe(404);
    expect((await a.api("GET", `${path}/latest`)).status).toBe(404);
  });
});
