import { describe, expect, it } from "vitest";
import { baseUrl, newAccount, request, type TestAccount } from "../harness/client";
import { postAction, signIn, signUpUser, uniqueEmail } from "../harness/dashboard";
import { securitySuite } from "../harness/security";
import { parseCsv, parseGeoJson, parseGpx, pointOf, type ExportedPoint } from "../support/track-export";
import { awayFromWindowEdge } from "../support/window-edge";

const BASE = Date.parse("2026-01-10T12:00:00.000Z");
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();

async function trackableOf(owner: TestAccount, name = "Tracked") {
  const res = await owner.api("POST", "/trackables", { name });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** The raw export response (the harness's JSON client would parse the body). */
async function download(key: string, id: string, query: string) {
  const res = await fetch(`${baseUrl()}/api/v1/trackables/${id}/locations/export?${query}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Every location of the range through GET history, oldest first, page by page. */
async function history(a: TestAccount, id: string, range = "") {
  const out: (ExportedPoint & { id: string })[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: { data: (ExportedPoint & { id: string })[]; nextCursor: string | null } } = await a.api("GET", `/trackables/${id}/locations?order=asc&limit=1000${range}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

/** 2,500 points (so an export spans three of its pages), with every optional field sometimes reported. */
function samplePoints(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    latitude: 52.5 + i * 1e-5 + 1e-9 * (i % 7),
    longitude: 13.4 - i * 1.3e-5,
    timestamp: at(i),
    ...(i % 2 === 0 ? { accuracy: 3.25 + (i % 5) } : {}),
    ...(i % 3 === 0 ? { altitude: -12.5 + i / 10 } : {}),
    ...(i % 4 === 0 ? { speed: 1.5, heading: (i * 7) % 360 } : {}),
    ...(i % 5 === 0 ? { battery: 100 - (i % 100) } : {}),
  }));
}

async function postAll(a: TestAccount, id: string, points: object[]) {
  for (let i = 0; i < points.length; i += 1000) {
    const res = await a.api("POST", `/trackables/${id}/locations`, { locations: points.slice(i, i + 1000) });
    expect(res.status).toBe(201);
  }
}

securitySuite(
  "GET /trackables/{id}/locations/export",
  { method: "GET", path: async (o) => `/trackables/${await trackableOf(o)}/locations/export?format=csv`, contentType: "text/csv" },
);

describe("GET /trackables/{id}/locations/export", () => {
  it("GPX, GeoJSON and CSV each hold exactly the history, point by point, oldest first", async () => {
    const a = await newAccount();
    const name = `Van <12> & "Co's" \u00e9t\u00e9 \u{1F69A}`;
    const id = await trackableOf(a, name);
    await postAll(a, id, samplePoints(2500));
    const expected = await history(a, id);
    expect(expected).toHaveLength(2500);

    const g = await download(a.key, id, "format=gpx");
    expect(g.status).toBe(200);
    expect(g.headers.get("content-type")).toBe("application/gpx+xml; charset=utf-8");
    expect(g.headers.get("content-disposition")).toBe('attachment; filename="van-12-co-s-ete.gpx"');
    // Streamed: no length known in advance.
    expect(g.headers.get("content-length")).toBeNull();
    const parsedGpx = parseGpx(g.text);
    expect(parsedGpx.name).toBe(name);
    expect(parsedGpx.points).toEqual(expected.map(pointOf));

    const j = await download(a.key, id, "format=geojson");
    expect(j.status).toBe(200);
    expect(j.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    expect(j.headers.get("content-disposition")).toBe('attachment; filename="van-12-co-s-ete.geojson"');
    const parsedJson = parseGeoJson(j.text);
    expect(parsedJson.ids).toEqual(expected.map((l) => l.id));
    expect(parsedJson.points).toEqual(expected.map(pointOf));

    const c = await download(a.key, id, "format=csv");
    expect(c.status).toBe(200);
    expect(c.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(c.headers.get("content-disposition")).toBe('attachment; filename="van-12-co-s-ete.csv"');
    expect(c.text.split("\r\n")[0]).toBe("id,timestamp,latitude,longitude,accuracy,altitude,speed,heading,battery,source,receivedAt");
    const parsedCsv = parseCsv(c.text);
    expect(parsedCsv.ids).toEqual(expected.map((l) => l.id));
    expect(parsedCsv.points).toEqual(expected.map(pointOf));
  });

  it("from and to are inclusive and name the file; the same range as GET history", async () => {
    const a = await newAccount();
    const id = await trackableOf(a, "Range");
    await postAll(a, id, samplePoints(50));
    const from = at(10);
    const to = at(20);
    const expected = await history(a, id, `&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(expected).toHaveLength(11);
    for (const format of ["gpx", "geojson", "csv"] as const) {
      const res = await download(a.key, id, `format=${format}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      expect(res.status, format).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="range_2026-01-10T1200Z_2026-01-10T1200Z.${format}"`);
      const points = format === "gpx" ? parseGpx(res.text).points : format === "geojson" ? parseGeoJson(res.text).points : parseCsv(res.text).points;
      expect(points, format).toEqual(expected.map(pointOf));
    }
    // Only `from`: the rest of the history; the file says "now".
    const rest = await download(a.key, id, `format=csv&from=${encodeURIComponent(at(45))}`);
    expect(parseCsv(rest.text).points.map((p) => p.timestamp)).toEqual([45, 46, 47, 48, 49].map(at));
    expect(rest.headers.get("content-disposition")).toBe('attachment; filename="range_2026-01-10T1200Z_now.csv"');
  });

  it("an empty range is a valid, empty file in every format", async () => {
    const a = await newAccount();
    const id = await trackableOf(a, "Empty");
    expect(parseGpx((await download(a.key, id, "format=gpx")).text).points).toEqual([]);
    expect(parseGeoJson((await download(a.key, id, "format=geojson")).text).points).toEqual([]);
    const csv = await download(a.key, id, "format=csv");
    expect(csv.text).toBe("id,timestamp,latitude,longitude,accuracy,altitude,speed,heading,battery,source,receivedAt\r\n");
  });

  it("400 for a missing or unknown format and for from/to as GET history refuses them, in the error envelope", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    const cases: [string, string][] = [
      ["", 'Invalid query: format: must be "gpx", "geojson" or "csv"'],
      ["format=kml", 'Invalid query: format: must be "gpx", "geojson" or "csv"'],
      ["format=gpx&from=yesterday", "Invalid query: from: must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T07:33:55.123Z"],
      ["format=gpx&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z", "Invalid query: from: must not be after to"],
    ];
    for (const [query, message] of cases) {
      const res = await download(a.key, id, query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(JSON.parse(res.text), query).toEqual({ error: { code: "invalid_request", message } });
    }
  });

  it("another account's trackable, an unknown one and a deleted one are 404", async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const id = await trackableOf(owner);
    await postAll(owner, id, samplePoints(3));
    const res = await download(stranger.key, id, "format=gpx");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ error: { code: "not_found", message: `Trackable not found: ${id}` } });
    expect((await download(owner.key, "0190aaaa-0000-7000-8000-000000000000", "format=csv")).status).toBe(404);
    expect((await owner.api("DELETE", `/trackables/${id}`)).status).toBe(204);
    expect((await download(owner.key, id, "format=csv")).status).toBe(404);
  });

  it("counts as one request against the rate limit, however many pages it streams", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    await postAll(a, id, samplePoints(2500));
    // Remaining counts are exact only within one of the limiter's minute windows.
    await awayFromWindowEdge(20_000);
    const before = Number((await a.api("GET", `/trackables/${id}`)).headers.get("x-ratelimit-remaining"));
    const res = await download(a.key, id, "format=csv");
    expect(parseCsv(res.text).points).toHaveLength(2500);
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBe(before - 1);
    const after = Number((await a.api("GET", `/trackables/${id}`)).headers.get("x-ratelimit-remaining"));
    expect(after).toBe(before - 2);
  });

  it("OPTIONS answers with Allow; other methods are 405", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    const opts = await fetch(`${baseUrl()}/api/v1/trackables/${id}/locations/export`, { method: "OPTIONS" });
    expect(opts.status).toBe(204);
    expect(opts.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const post = await a.api("POST", `/trackables/${id}/locations/export`, {});
    expect(post.status).toBe(405);
  });

  it("the dashboard's session route streams the same file for the signed-in account; 401 without a session, 404 across accounts", async () => {
    const user = await signUpUser(baseUrl(), uniqueEmail("export"));
    const { cookie } = await signIn(baseUrl(), user.email, user.password);
    const created = await postAction(baseUrl(), { page: "/api-keys", file: "lib/api-keys/actions.ts", name: "createApiKeyAction", args: [{ name: "export" }], cookie });
    const key = /"(fl_[^"]+)"/.exec(created.text)![1]!;
    const mine = await request("POST", "/api/v1/trackables", { key, body: { name: "Mine" } });
    expect(mine.status).toBe(201);
    const id = mine.body.id as string;
    const posted = await request("POST", `/api/v1/trackables/${id}/locations`, { key, body: { locations: samplePoints(1000) } });
    expect(posted.status).toBe(201);

    const path = `/api/internal/trackables/${id}/locations/export?format=csv&from=${encodeURIComponent(at(100))}`;
    const viaSession = await fetch(`${baseUrl()}${path}`, { headers: { cookie } });
    expect(viaSession.status).toBe(200);
    expect(viaSession.headers.get("content-disposition")).toBe('attachment; filename="mine_2026-01-10T1201Z_now.csv"');
    const viaKey = await download(key, id, `format=csv&from=${encodeURIComponent(at(100))}`);
    const sessionCsv = parseCsv(await viaSession.text());
    expect(sessionCsv.points).toHaveLength(900);
    expect(sessionCsv).toEqual(parseCsv(viaKey.text));

    const anonymous = await fetch(`${baseUrl()}${path}`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
    const other = await newAccount();
    const theirs = await trackableOf(other);
    const across = await fetch(`${baseUrl()}/api/internal/trackables/${theirs}/locations/export?format=gpx`, { headers: { cookie } });
    expect(across.status).toBe(404);
    expect(await across.json()).toEqual({ error: { code: "not_found", message: `Trackable not found: ${theirs}` } });
    const bad = await fetch(`${baseUrl()}/api/internal/trackables/${id}/locations/export?format=xml`, { headers: { cookie } });
    expect(bad.status).toBe(400);
  });

  it("exports exactly 100,000 locations; one more in the range is a 400 that says so, and a narrower range works", async () => {
    const a = await newAccount();
    const id = await trackableOf(a, "Long");
    const points = Array.from({ length: 100_000 }, (_, i) => ({ latitude: (i % 1000) / 100, longitude: i / 10_000, timestamp: at(i) }));
    // 100 batches: more than one key's budget per minute, so the second half goes through a second key.
    const second = await a.newKey();
    for (let i = 0; i < points.length; i += 1000) {
      const key = i < 50_000 ? a.key : second;
      const res = await fetch(`${baseUrl()}/api/v1/trackables/${id}/locations`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ locations: points.slice(i, i + 1000) }),
      });
      expect(res.status).toBe(201);
    }
    const third = await a.newKey();
    const full = await download(third, id, "format=csv");
    expect(full.status).toBe(200);
    const csv = parseCsv(full.text);
    expect(csv.points).toHaveLength(100_000);
    expect(csv.points[0]!.timestamp).toBe(at(0));
    expect(csv.points.at(-1)!.timestamp).toBe(at(99_999));
    expect(new Set(csv.ids).size).toBe(100_000);

    expect((await a.api("POST", `/trackables/${id}/locations`, { latitude: 1, longitude: 1, timestamp: at(100_000) })).status).toBe(201);
    for (const format of ["gpx", "geojson", "csv"]) {
      const over = await download(third, id, `format=${format}`);
      expect(over.status).toBe(400);
      expect(JSON.parse(over.text)).toEqual({
        error: {
          code: "invalid_request",
          message: "Too many locations to export: this range holds more than 100,000; narrow it with from and to and export it in parts",
        },
      });
    }
    const narrowed = await download(third, id, `format=geojson&from=${encodeURIComponent(at(1))}`);
    expect(narrowed.status).toBe(200);
    const geo = parseGeoJson(narrowed.text);
    expect(geo.points).toHaveLength(100_000);
    expect(geo.points.at(-1)!.timestamp).toBe(at(100_000));
  }, 300_000);
});
