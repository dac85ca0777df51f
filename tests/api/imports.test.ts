import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl, newAccount, type TestAccount } from "../harness/client";

const FIXTURES = path.resolve(__dirname, "../fixtures/imports");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

async function trackableOf(a: TestAccount) {
  const res = await a.api("POST", "/trackables", { name: "Imported" });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** POST …/imports with a raw body (the harness's client would JSON-encode it): the answer, as it came. */
async function post(a: TestAccount, id: string, body: BodyInit, query = "", headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl()}/api/v1/trackables/${id}/imports${query}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${a.key}`, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** The import, polled with GET until it is no longer running (it is read in the background). */
async function settled(a: TestAccount, id: string, importId: string) {
  for (let i = 0; i < 600; i++) {
    const res = await a.api("GET", `/trackables/${id}/imports/${importId}`);
    expect(res.status).toBe(200);
    if (res.body.status !== "running") return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`import ${importId} still running after 60 s`);
}

/** POST …/imports, then (when it was accepted) the import once it has ended, in place of the 202's body. */
async function upload(a: TestAccount, id: string, body: BodyInit, query = "", headers: Record<string, string> = {}) {
  const res = await post(a, id, body, query, headers);
  if (res.status !== 202) return { ...res, accepted: null };
  expect(res.body.status).toBe("running");
  return { ...res, accepted: res.body, body: await settled(a, id, res.body.id) };
}

async function history(a: TestAccount, id: string) {
  const res = await a.api("GET", `/trackables/${id}/locations?order=asc&limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data as { latitude: number; longitude: number; timestamp: string; source: string }[];
}

describe("POST /trackables/{id}/imports", () => {
  it("reads a raw GPX body, stores its points as imported, and reports the bad one by line", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    const res = await upload(a, id, fixture("gpslogger-136.gpx"), "?format=gpx", { "Content-Type": "application/gpx+xml" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "completed",
      format: "gpx",
      evaluate: false,
      processed: 3,
      stored: 2,
      skipped: 1,
      errors: [{ line: 17, message: "lon: required; time: required" }],
    });
    expect(res.headers.get("location")).toBe(`/api/v1/trackables/${id}/imports/${res.body.id}`);
    const points = await history(a, id);
    expect(points.map((p) => [p.timestamp, p.source])).toEqual([
      ["2026-08-09T23:00:41.189Z", "import"],
      ["2026-08-09T23:01:46.781Z", "import"],
    ]);

    expect(res.accepted).toMatchObject({ id: res.body.id, status: "running", format: "gpx", completedAt: null });
  });

  it("applies the account's privacy zones to imported history: dropped inside a drop zone, moved to the centre of a blur zone", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    const drop = await a.api("POST", "/privacy-zones", { name: "Home", latitude: 10, longitude: 10, radius: 200, mode: "drop" });
    expect(drop.status).toBe(201);
    const blur = await a.api("POST", "/privacy-zones", { name: "Office", latitude: 20, longitude: 20, radius: 300, mode: "blur" });
    expect(blur.status).toBe(201);
    const gpx = `<?xml version="1.0"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="10.0005" lon="10.0005"><time>2026-01-01T10:00:00Z</time></trkpt>
<trkpt lat="20.001" lon="20.001"><time>2026-01-01T11:00:00Z</time></trkpt>
<trkpt lat="30" lon="30"><time>2026-01-01T12:00:00Z</time></trkpt>
</trkseg></trk></gpx>`;
    const res = await upload(a, id, gpx, "?format=gpx", { "Content-Type": "application/gpx+xml" });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "completed", processed: 3, stored: 2 });
    const points = await history(a, id);
    expect(points.map((p) => [p.latitude, p.longitude, p.timestamp])).toEqual([
      [20, 20, "2026-01-01T11:00:00.000Z"],
      [30, 30, "2026-01-01T12:00:00.000Z"],
    ]);
  });

  it("takes a multipart file, telling Takeout's Records.json by its name, and drops resends on a second import", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    const form = () => {
      const f = new FormData();
      f.append("file", new Blob([fixture("takeout-records.json")], { type: "application/json" }), "Records.json");
      return f;
    };
    const first = await upload(a, id, form());
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ format: "takeout", status: "completed", processed: 4, stored: 3, skipped: 1 });
    expect(first.body.errors).toEqual([{ index: 3, message: "latitudeE7: required" }]);
    const second = await upload(a, id, form());
    expect(second.body).toMatchObject({ status: "completed", processed: 4, stored: 0, skipped: 4 });
    expect(await history(a, id)).toHaveLength(3);
  });

  it("round-trips the CSV export of another trackable", async () => {
    const a = await newAccount();
    const from = await trackableOf(a);
    const points = Array.from({ length: 2500 }, (_, i) => ({
      latitude: 52.5 + i * 1e-5,
      longitude: 13.4 - i * 1.3e-5,
      timestamp: new Date(Date.parse("2026-01-10T12:00:00.000Z") + i * 1000).toISOString(),
      ...(i % 2 === 0 ? { accuracy: 3.25 } : {}),
    }));
    for (let i = 0; i < points.length; i += 1000) expect((await a.api("POST", `/trackables/${from}/locations`, { locations: points.slice(i, i + 1000) })).status).toBe(201);
    const csv = await (await fetch(`${baseUrl()}/api/v1/trackables/${from}/locations/export?format=csv`, { headers: { Authorization: `Bearer ${a.key}` } })).text();
    const to = await trackableOf(a);
    const res = await upload(a, to, csv, "", { "Content-Type": "text/csv" });
    expect(res.body).toMatchObject({ format: "csv", status: "completed", processed: 2500, stored: 2500, skipped: 0, errors: [] });
    const all: { latitude: number; timestamp: string; accuracy: number | null }[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: typeof all; nextCursor: string | null } } = await a.api("GET", `/trackables/${to}/locations?order=asc&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      all.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(all.map((p) => [p.latitude, p.timestamp, p.accuracy])).toEqual(points.map((p) => [p.latitude, p.timestamp, p.accuracy ?? null]));
  });

  it("ends a broken file as failed, keeping what was read before the break", async () => {
    const a = await newAccount();
    const id = await trackableOf(a);
    const text = fixture("owntracks-demo-iphone.rec").toString("utf8");
    const res = await upload(a, id, text + "2015-08-24T09:00:00Z\t*  \t" + "x".repeat(70_000), "?format=owntracks");
    expect(res.body).toMatchObject({ status: "failed", stored: 7 });
    expect(res.body.errors.at(-1).message).toMatch(/longer than/);
  });

  it("stores the history without geofence events by default, and evaluates it with evaluate=true", async () => {
    const a = await newAccount();
    const geofence = await a.api("POST", "/geofences", { name: "Start", latitude: 52.37888580984668, longitude: 10.02785726730668, radius: 500 });
    expect(geofence.status).toBe(201);
    const quiet = await trackableOf(a);
    expect((await upload(a, quiet, fixture("owntracks-demo-iphone.rec"), "?format=owntracks")).body.stored).toBe(7);
    const evaluated = await trackableOf(a);
    expect((await upload(a, evaluated, fixture("owntracks-demo-iphone.rec"), "?format=owntracks&evaluate=true")).body.stored).toBe(7);
    let events: { type: string }[] = [];
    for (let i = 0; i < 60 && events.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 250));
      events = (await a.api("GET", `/events?trackableId=${evaluated}`)).body.data;
    }
    expect(events.map((e) => e.type).sort()).toEqual(expect.arrayContaining(["geofence.entry", "geofence.exit"]));
    expect((await a.api("GET", `/events?trackableId=${quiet}`)).body.data).toEqual([]);
  });

  it("answers 400 for an unknown or untellable format, and 404 for another workspace's trackable or import", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const id = await trackableOf(a);
    const bad = await upload(a, id, "x", "?format=kml");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("format");
    const unknown = await upload(a, id, "x", "", { "Content-Type": "application/octet-stream" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("?format=");
    // Not GPX from its first bytes: refused while the upload runs, and no import is left behind.
    const html = await post(a, id, "Not found: the file was moved.\n".repeat(4000), "?format=gpx");
    expect(html.status).toBe(400);
    expect(html.body.error.message).toMatch(/cannot be read as GPX/);
    const json = await post(a, id, "this is not json", "?format=geojson");
    expect(json.status).toBe(400);
    expect(json.body.error.message).toMatch(/cannot be read as GeoJSON/);
    expect((await upload(b, id, fixture("gpslogger-2012.gpx"), "?format=gpx")).status).toBe(404);
    const mine = await upload(a, id, fixture("gpslogger-2012.gpx"), "?format=gpx");
    expect(mine.body).toMatchObject({ processed: 2, stored: 1, skipped: 1 });
    expect((await b.api("GET", `/trackables/${id}/imports/${mine.body.id}`)).status).toBe(404);
    const bTrackable = await trackableOf(b);
    expect((await b.api("GET", `/trackables/${bTrackable}/imports/${mine.body.id}`)).status).toBe(404);
  });
});
