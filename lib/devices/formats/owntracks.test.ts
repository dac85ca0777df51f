import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { owntracks } from "./owntracks";

// Messages as the apps build them: iOS formats the course with "%.0f" and Android with roundToInt, so a course from
// 359.5° on is sent as "cog": 360; Android's own parser marks "tst": 0 invalid.
const nowS = () => Math.floor(Date.now() / 1000);
const location = (fields: Record<string, unknown>) => ({ _type: "location", lat: 50.1, lon: 60.2, acc: 10, tst: nowS(), ...fields });
const request = (body: string, type: string | null) =>
  new Request("http://fenceline.test/ingest/owntracks?token=fldevX", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });

describe("owntracks format", () => {
  it('stores "cog": 360 as heading 0 (north), not a 400', () => {
    expect(owntracks.points(location({ cog: 360 }))).toEqual([expect.objectContaining({ heading: 0 })]);
    expect(owntracks.points(location({ cog: 359 }))).toEqual([expect.objectContaining({ heading: 359 })]);
    expect(() => owntracks.points(location({ cog: 361 }))).toThrow(/cog: must be a number between 0 and 360/);
  });

  it("drops a fix dated at or before 1970 or beyond any date (nothing to store, and no error the app would resend)", () => {
    for (const tst of [0, -1, 1e17, 1e300, 8.64e15 + 1, 253402300800]) {
      expect(owntracks.points(location({ tst })), String(tst)).toEqual([]);
    }
    expect(owntracks.points(location({ tst: 1 }))).toEqual([expect.objectContaining({ timestamp: new Date(1000) })]);
  });

  it("a fix ahead of the clock is still a 400: it becomes valid once its time has come", () => {
    expect(() => owntracks.points(location({ tst: nowS() + 86_400 }))).toThrow(ApiError);
  });

  it("reads the JSON body whatever its Content-Type (curl --data labels it a form, as the booklet's test does)", async () => {
    const body = JSON.stringify(location({}));
    for (const type of ["application/x-www-form-urlencoded", "text/plain", null, "application/json; charset=utf-8"]) {
      const { token, payload } = await owntracks.read(request(body, type));
      expect(token).toBe("fldevX");
      expect(payload).toMatchObject({ _type: "location", lat: 50.1 });
    }
    await expect(owntracks.read(request("lat=1&lon=2", "application/x-www-form-urlencoded"))).rejects.toThrow(/not valid JSON/);
  });
});
