import { describe, expect, it } from "vitest";
import { newDevice, send, storedLocations } from "../support/devices";

// The app server answers device posts itself (lib/server/device-path.ts), not through Next.js. Every response Next.js
// renders carries its router's `Vary: rsc, next-router-state-tree, …` (the 405 and 404 below show it), so a device
// post answered without it was never seen by Next.js — and still has the app server's client address, security
// headers and the verb's behaviour.

const NEXT_VARY = /\brsc\b/;

describe("the lean device path", () => {
  it("stores a Traccar post (GET and POST), an OwnTracks post and an Overland batch without Next.js", async () => {
    const { account, trackableId, token } = await newDevice();
    const t = Math.floor(Date.now() / 1000) - 30;
    const posted = await send("POST", `/ingest/traccar?id=${token}&lat=52.5&lon=13.4&timestamp=${t}`);
    const got = await send("GET", `/ingest/traccar?id=${token}&lat=52.51&lon=13.41&timestamp=${t + 1}`);
    const owntracks = await send("POST", "/ingest/owntracks", {
      headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(`u:${token}`).toString("base64")}` },
      body: JSON.stringify({ _type: "location", lat: 52.52, lon: 13.42, tst: t + 2 }),
    });
    const overland = await send("POST", "/ingest/overland", {
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        locations: [
          { type: "Feature", geometry: { type: "Point", coordinates: [13.43, 52.53] }, properties: { timestamp: new Date((t + 3) * 1000).toISOString() } },
        ],
      }),
    });
    for (const res of [posted, got, owntracks, overland]) {
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("vary") ?? "").not.toMatch(NEXT_VARY);
      // The app server's headers for this kind of path, as on every other response.
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const stored = await storedLocations(account, trackableId);
    expect(stored.map((l: { source: string }) => l.source)).toEqual(["traccar", "traccar", "owntracks", "overland"]);
  });

  it("errors are the verb's JSON envelope with the app's challenge; other methods and paths still reach Next.js", async () => {
    const unauthorized = await send("POST", "/ingest/owntracks", { headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.json.error.code).toBe("unauthorized");
    expect(unauthorized.headers.get("www-authenticate")).toContain("Basic");
    expect(unauthorized.headers.get("vary") ?? "").not.toMatch(NEXT_VARY);

    const wrongMethod = await send("DELETE", "/ingest/traccar");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("vary")).toMatch(NEXT_VARY);
    const unknown = await send("POST", "/ingest/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("vary")).toMatch(NEXT_VARY);
  });
});
