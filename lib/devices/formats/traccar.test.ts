import { describe, expect, it } from "vitest";
import { traccar } from "./traccar";

const nowS = () => Math.floor(Date.now() / 1000);
const get = async (query: string) => traccar.points((await traccar.read(new Request(`http://fenceline.test/ingest/traccar?${query}`))).payload);
const json = async (body: unknown) =>
  traccar.points(
    (await traccar.read(new Request("http://fenceline.test/ingest/traccar", { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } })))
      .payload,
  );
const client9 = (timestamp: string, heading: number) => ({
  device_id: "fldevX",
  location: { timestamp, coords: { latitude: 37.4219983, longitude: -122.084, accuracy: 5, speed: 0, heading, altitude: 5 }, battery: { level: 1 } },
});

describe("traccar format", () => {
  it("a bearing or heading of 360 is stored as 0", async () => {
    expect(await get(`id=t&lat=3&lon=3&timestamp=${nowS()}&bearing=360`)).toEqual([expect.objectContaining({ heading: 0 })]);
    expect(await json(client9(new Date().toISOString(), 360))).toEqual([expect.objectContaining({ heading: 0 })]);
  });

  it("drops a fix dated at or before 1970 or beyond any date, in seconds, milliseconds or ISO 8601, instead of a 500", async () => {
    for (const ts of ["0", "100000000000000000", "8640000000000001", "253402300800"]) {
      expect(await get(`id=t&lat=3&lon=3&timestamp=${ts}`), ts).toEqual([]);
    }
    expect(await get(`id=t&lat=3&lon=3&timestamp=1970-01-01T00%3A00%3A00Z`)).toEqual([]);
    expect(await json(client9("1970-01-01T00:00:00.000Z", 0))).toEqual([]);
    // Not a date-time at all: a 400, as any other unreadable value.
    await expect(get("id=t&lat=3&lon=3&timestamp=%2B275760-09-13T00%3A00%3A00.001Z")).rejects.toThrow(/timestamp: must be/);
  });
});
