import { describe, expect, it } from "vitest";
import { fromUnixTime, parseIsoTime } from "./formats/common";
import { gpsloggerUrl, ingestUrl, osmandUrl, overlandSetupLink, owntracksConfigLink, phoneReach, traccarClientLink } from "./setup";

const TOKEN = "fldevAbCdEfGhIjKlMnOpQrStUvWxYz012345";

describe("set-up links", () => {
  it("OwnTracks: the booklet's owntracks:///config?inline=<base64 configuration>, percent-encoded as a query value", () => {
    // This configuration's base64 ends in "==" padding: sent percent-encoded, as any query value must be.
    const link = owntracksConfigLink("https://example.com/~fl/", TOKEN);
    const inline = link.slice("owntracks:///config?inline=".length);
    expect(inline).not.toMatch(/[+/=]/);
    const config = JSON.parse(Buffer.from(decodeURIComponent(inline), "base64").toString("utf8"));
    expect(config).toEqual({
      _type: "configuration",
      mode: 3,
      url: "https://example.com/~fl/ingest/owntracks",
      auth: true,
      username: "fenceline",
      password: TOKEN,
    });
  });

  it("Overland, Traccar Client, GPSLogger and OsmAnd", () => {
    const app = "https://track.example.com";
    expect(overlandSetupLink(app, TOKEN)).toBe(`overland://setup?url=https%3A%2F%2Ftrack.example.com%2Fingest%2Foverland&token=${TOKEN}`);
    // Traccar Client's own scheme: a link to the ingest URL itself would open the browser on a request it refuses.
    const traccar = new URL(traccarClientLink(app, TOKEN));
    expect(traccar.protocol).toBe("org.traccar.client:");
    expect(traccar.searchParams.get("url")).toBe(ingestUrl(app, "traccar-client"));
    expect(traccar.searchParams.get("id")).toBe(TOKEN);
    expect(gpsloggerUrl(app, TOKEN)).toBe(
      `https://track.example.com/ingest/traccar?id=${TOKEN}&lat=%LAT&lon=%LON&timestamp=%TIMESTAMP&altitude=%ALT&accuracy=%ACC&bearing=%DIR&batt=%BATT`,
    );
    expect(osmandUrl(app, TOKEN)).toContain("/ingest/traccar?id=");
  });
});

describe("whether a phone can use APP_URL", () => {
  it("names a loopback host and plain http; a public https URL is fine", () => {
    expect(phoneReach("http://localhost:3000")).toEqual({ loopback: true, plainHttp: true });
    expect(phoneReach("https://127.0.0.1")).toEqual({ loopback: true, plainHttp: false });
    expect(phoneReach("http://[::1]:3000")).toEqual({ loopback: true, plainHttp: true });
    expect(phoneReach("http://0.0.0.0:3000")).toEqual({ loopback: true, plainHttp: true });
    expect(phoneReach("http://192.168.1.20:3000")).toEqual({ loopback: false, plainHttp: true });
    expect(phoneReach("https://track.example.com")).toBeNull();
  });
});

describe("device time formats", () => {
  it("ISO 8601 with Z, ±hh:mm, ±hhmm (Overland) or ±hh; nothing without a zone", () => {
    expect(parseIsoTime("2015-10-01T08:00:00-0700")?.toISOString()).toBe("2015-10-01T15:00:00.000Z");
    expect(parseIsoTime("2015-10-01T08:00:00-07:00")?.toISOString()).toBe("2015-10-01T15:00:00.000Z");
    expect(parseIsoTime("2015-10-01T08:00:00+05")?.toISOString()).toBe("2015-10-01T03:00:00.000Z");
    expect(parseIsoTime("2021-07-21T08:06:34.444Z")?.toISOString()).toBe("2021-07-21T08:06:34.444Z");
    expect(parseIsoTime("2021-07-21T08:06:34.444123Z")?.toISOString()).toBe("2021-07-21T08:06:34.444Z");
    for (const bad of ["2015-10-01T08:00:00", "2014-06-04 09:10:11", "2015-13-01T08:00:00Z", "yesterday", "1377177267"]) {
      expect(parseIsoTime(bad), bad).toBeNull();
    }
  });

  it("Unix seconds, or milliseconds above 10^12", () => {
    expect(fromUnixTime(1377177267).toISOString()).toBe("2013-08-22T13:14:27.000Z");
    expect(fromUnixTime(1442068686579).toISOString()).toBe("2015-09-12T14:38:06.579Z");
  });
});
