import { createReadStream } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KMH_TO_MS } from "@/lib/devices/formats/common";
import { WRITERS } from "@/lib/locations/export";
import type { Location } from "@/lib/locations/schemas";
import { detectFormat, IMPORT_FORMATS, type ImportFormatName } from "./index";
import { ImportFileError, type ParsedRecord } from "./types";

const FIXTURES = path.resolve(__dirname, "../../../tests/fixtures/imports");

async function parseAll(format: ImportFormatName, input: AsyncIterable<Uint8Array | string>): Promise<ParsedRecord[]> {
  const out: ParsedRecord[] = [];
  for await (const r of IMPORT_FORMATS[format].parse(input)) out.push(r);
  return out;
}
const file = (name: string) => createReadStream(path.join(FIXTURES, name), { highWaterMark: 64 });
/** The text in chunks of `size` characters, so records and multi-byte characters straddle chunk boundaries. */
async function* chunks(text: string, size = 7): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const fixes = (records: ParsedRecord[]) => records.flatMap((r) => ("fix" in r ? [r.fix] : []));
const errors = (records: ParsedRecord[]) => records.flatMap((r) => ("error" in r ? [r.error] : []));

describe("import formats on published sample files", () => {
  it("reads the OwnTracks Recorder's .rec lines, passing over lwt messages, with -1 as not known", async () => {
    const records = await parseAll("owntracks", file("owntracks-demo-iphone.rec"));
    expect(errors(records)).toEqual([]);
    const got = fixes(records);
    expect(got).toHaveLength(7);
    expect(got[0]).toMatchObject({ latitude: 52.37888580984668, longitude: 10.02785726730668, accuracy: 3000, altitude: 51, speed: null, heading: null, battery: 96 });
    expect(got[0]!.timestamp.toISOString()).toBe("2015-08-24T05:49:21.000Z");
    expect(got[5]!.speed).toBeCloseTo(35 / 3.6, 9);
    expect(got[5]!.heading).toBe(118);
  });

  it("reads GPSLogger's GPX 1.0 and reports the point without lon by its line", async () => {
    const records = await parseAll("gpx", file("gpslogger-136.gpx"));
    const got = fixes(records);
    expect(got).toHaveLength(2);
    expect(got[0]).toMatchObject({ latitude: 46.8898949096583, longitude: 2.2048472305329634, altitude: 175.54906656848235 });
    expect(got[1]).toMatchObject({ speed: 0, heading: 277.0612 });
    expect(got[1]!.timestamp.toISOString()).toBe("2026-08-09T23:01:46.781Z");
    expect(errors(records)).toEqual([{ line: 17, message: "lon: required; time: required" }]);
    const old = fixes(await parseAll("gpx", file("gpslogger-2012.gpx")));
    expect(old.map((f) => f.timestamp.toISOString())).toEqual(["2012-04-22T06:41:02.000Z", "2012-04-22T06:41:02.000Z"]);
  });

  it("reads togeojson's LineString with coordinateProperties.times", async () => {
    const got = fixes(await parseAll("geojson", file("togeojson-gpslogger-2012.geojson")));
    expect(got).toHaveLength(2);
    expect(got[0]).toMatchObject({ latitude: 35.56586083333333, longitude: 139.69388678333334 });
  });

  it("reads Takeout records in the timestampMs and the timestamp forms, reporting a bad one by its index", async () => {
    const records = await parseAll("takeout", file("takeout-records.json"));
    const got = fixes(records);
    expect(got).toHaveLength(3);
    expect(got[0]).toMatchObject({ latitude: 4.8445182, longitude: 2.4287419, accuracy: 13, altitude: 117 });
    expect(got[0]!.timestamp.getTime()).toBe(1532122858202);
    expect(got[1]).toMatchObject({ latitude: -4.0887882, longitude: -70.3350253 });
    expect(got[2]).toMatchObject({ latitude: 41.4216106, longitude: 2.1684775, speed: 0, heading: 188 });
    expect(errors(records)).toEqual([{ index: 3, message: "latitudeE7: required" }]);
  });

  it("reads Fenceline's CSV export, reporting the out-of-range row by its line", async () => {
    const records = await parseAll("csv", file("fenceline-export.csv"));
    const got = fixes(records);
    expect(got).toHaveLength(2);
    expect(got[0]).toMatchObject({ latitude: 52.52, longitude: 13.405, accuracy: 8, altitude: 34.5, speed: 12.4, heading: 271.5, battery: 87 });
    expect(got[1]).toMatchObject({ accuracy: null, battery: null });
    expect(errors(records)).toEqual([{ line: 4, message: expect.stringMatching(/^latitude: /) }]);
  });
});

describe("malformed files", () => {
  it("ends a GPX that is not XML with a file error naming the line", async () => {
    await expect(parseAll("gpx", chunks('<gpx>\n<trkpt lat="1" lon="2">\n<time>x</trkpt>'))).rejects.toBeInstanceOf(ImportFileError);
  });
  it("ends JSON that breaks off with a file error", async () => {
    await expect(parseAll("takeout", chunks('{"locations":[{"latitudeE7":1,'))).rejects.toBeInstanceOf(ImportFileError);
  });
  it("refuses a CSV without the required columns", async () => {
    await expect(parseAll("csv", chunks("a,b\n1,2\n"))).rejects.toThrow(/timestamp, latitude, longitude/);
  });
  it("reports a .rec line that is not JSON and goes on", async () => {
    const records = await parseAll("owntracks", chunks('2015-08-24T05:55:07Z\t*  \t{oops\n2015-08-24T05:55:07Z\t*  \t{"_type":"location","lat":1,"lon":2,"tst":1440395361}\n'));
    expect(errors(records)).toEqual([{ line: 1, message: "the message is not valid JSON" }]);
    expect(fixes(records)).toHaveLength(1);
  });
});

describe("detectFormat", () => {
  it("knows Records.json from other JSON, and falls back to the media type", () => {
    expect(detectFormat("Records.json", null)).toBe("takeout");
    expect(detectFormat("track.json", null)).toBe("geojson");
    expect(detectFormat("2024-02.rec", null)).toBe("owntracks");
    expect(detectFormat(null, "application/gpx+xml")).toBe("gpx");
    expect(detectFormat("x.bin", "application/octet-stream")).toBeNull();
  });
});

// Values as the database returns them: any double in range, null when not reported; times at millisecond precision.
const measure = (min: number, max: number) => fc.option(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), { nil: null });
const location = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  accuracy: measure(0, 1_000_000),
  altitude: measure(-20_000, 1_000_000),
  speed: measure(0, 100_000),
  heading: fc.option(fc.double({ min: 0, max: 360, maxExcluded: true, noNaN: true }), { nil: null }),
  battery: measure(0, 100),
  timestamp: fc.date({ min: new Date("1970-01-01T00:00:00.001Z"), max: new Date("2026-01-01T00:00:00Z"), noInvalidDate: true }),
});

describe("export → import round trip", () => {
  for (const format of ["csv", "gpx", "geojson"] as const) {
    it(`gives back every exported location as ${format}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(location, { maxLength: 20 }), fc.string(), fc.integer({ min: 1, max: 64 }), async (track, name, chunkSize) => {
          const rows: Location[] = track.map((l, i) => ({
            ...l,
            // -0 is written as "0": the same position.
            latitude: l.latitude + 0,
            longitude: l.longitude + 0,
            id: `019a8d2e-7c1a-7b3e-9f00-${String(i).padStart(12, "0")}`,
            trackableId: "019a8d2e-7c1a-7b3e-9f00-0a1b2c3d4e5f",
            timestamp: l.timestamp.toISOString(),
            receivedAt: l.timestamp.toISOString(),
            source: "api",
          }));
          const writer = WRITERS[format]({ name, trackableId: "019a8d2e-7c1a-7b3e-9f00-0a1b2c3d4e5f" });
          const text = writer.head() + rows.map((r, i) => writer.row(r, i === 0)).join("") + writer.tail();
          const records = await parseAll(format, chunks(text, chunkSize));
          expect(errors(records)).toEqual([]);
          const back = fixes(records).map((f) => ({ ...f, timestamp: f.timestamp.toISOString() }));
          const zero = (n: number | null) => (n === null ? null : n + 0);
          expect(back).toEqual(
            rows.map((r) => ({
              latitude: r.latitude,
              longitude: r.longitude,
              accuracy: zero(r.accuracy),
              altitude: zero(r.altitude),
              speed: zero(r.speed),
              heading: zero(r.heading),
              battery: zero(r.battery),
              timestamp: r.timestamp,
            })),
          );
        }),
        { numRuns: 60 },
      );
    });
  }
});

// The two formats Fenceline does not write, generated as their apps write them: every location line or record gives
// back its values in Fenceline's units, the others are passed over, broken ones are reported where they are, however
// the bytes are cut.
const seconds = fc.integer({ min: 1, max: Math.floor(Date.parse("2026-01-01T00:00:00Z") / 1000) });
const notKnown = (n: number) => (n === -1 ? null : n);

describe("OwnTracks .rec, generated", () => {
  const locationLine = fc.record({
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
    acc: fc.integer({ min: 0, max: 5000 }),
    alt: fc.integer({ min: -400, max: 9000 }),
    vel: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 300 })),
    cog: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 359 })),
    batt: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 100 })),
    tst: seconds,
  });
  const line = fc.oneof(
    { weight: 6, arbitrary: locationLine.map((m) => ({ kind: "location" as const, m })) },
    { weight: 1, arbitrary: seconds.map((tst) => ({ kind: "lwt" as const, tst })) },
    { weight: 1, arbitrary: fc.constant({ kind: "broken" as const }) },
  );

  it("gives back every location line's values, passes over the others, and reports each broken line by its number", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), async (generated, chunkSize) => {
        const text = generated
          .map((l) => {
            if (l.kind === "broken") return "2015-08-24T05:49:21Z\t*                 \t{\"_type\": \"location\", \"lat\": ";
            const tst = l.kind === "lwt" ? l.tst : l.m.tst;
            const json = l.kind === "lwt" ? { _type: "lwt", tst } : { _type: "location", tid: "ip", ...l.m };
            return `${new Date(tst * 1000).toISOString().slice(0, 19)}Z\t${l.kind === "lwt" ? "lwt" : "*"}${" ".repeat(17)}\t${JSON.stringify(json)}`;
          })
          .join("\n");
        const records = await parseAll("owntracks", chunks(text, chunkSize));
        expect(errors(records).map((e) => e.line)).toEqual(generated.flatMap((l, i) => (l.kind === "broken" ? [i + 1] : [])));
        expect(fixes(records).map((f) => ({ ...f, timestamp: f.timestamp.getTime() }))).toEqual(
          generated.flatMap((l) =>
            l.kind !== "location"
              ? []
              : [
                  {
                    latitude: l.m.lat + 0,
                    longitude: l.m.lon + 0,
                    accuracy: l.m.acc,
                    altitude: l.m.alt,
                    speed: l.m.vel === -1 ? null : l.m.vel * KMH_TO_MS,
                    heading: notKnown(l.m.cog),
                    battery: notKnown(l.m.batt),
                    timestamp: l.m.tst * 1000,
                  },
                ],
          ),
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe("Google Takeout Records.json, generated", () => {
  const e7 = (limit: number) => fc.integer({ min: -limit * 1e7, max: limit * 1e7 });
  const record = fc.record({
    latitudeE7: e7(90),
    longitudeE7: e7(180),
    accuracy: fc.integer({ min: 0, max: 5000 }),
    altitude: fc.option(fc.integer({ min: -400, max: 9000 }), { nil: undefined }),
    ms: fc.integer({ min: 1, max: Date.parse("2026-01-01T00:00:00Z") }),
    // Older exports: timestampMs, and a negative E7 written as an unsigned 32-bit integer.
    older: fc.boolean(),
    unsigned: fc.boolean(),
    withoutLatitude: fc.boolean(),
  });

  it("gives back every record's degrees, metres and time in either form, and reports a record without latitude by its index", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 25 }), fc.integer({ min: 1, max: 64 }), async (generated, chunkSize) => {
        const written = generated.map((r) => ({
          ...(r.withoutLatitude ? {} : { latitudeE7: r.unsigned && r.latitudeE7 < 0 ? r.latitudeE7 + 2 ** 32 : r.latitudeE7 }),
          longitudeE7: r.unsigned && r.longitudeE7 < 0 ? r.longitudeE7 + 2 ** 32 : r.longitudeE7,
          accuracy: r.accuracy,
          ...(r.altitude === undefined ? {} : { altitude: r.altitude }),
          ...(r.older ? { timestampMs: String(r.ms) } : { timestamp: new Date(r.ms).toISOString() }),
        }));
        const text = JSON.stringify({ locations: written }, null, 1);
        const records = await parseAll("takeout", chunks(text, chunkSize));
        expect(errors(records)).toEqual(generated.flatMap((r, index) => (r.withoutLatitude ? [{ index, message: "latitudeE7: required" }] : [])));
        expect(fixes(records).map((f) => ({ latitude: f.latitude, longitude: f.longitude, accuracy: f.accuracy, altitude: f.altitude, timestamp: f.timestamp.getTime() }))).toEqual(
          generated
            .filter((r) => !r.withoutLatitude)
            .map((r) => ({ latitude: r.latitudeE7 / 1e7, longitude: r.longitudeE7 / 1e7, accuracy: r.accuracy, altitude: r.altitude ?? null, timestamp: r.ms })),
        );
      }),
      { numRuns: 150 },
    );
  });
});
