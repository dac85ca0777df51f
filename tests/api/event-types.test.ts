import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, useServer } from "../harness/client";
import { securitySuite } from "../harness/security";
import { startServer, type TestServer } from "../harness/server";

// GET /event-types lists the registry; a recorded device.status_changed says what changed (Event.status), from the
// payload stored with it, on every plan.

securitySuite("GET /event-types", { method: "GET", path: () => "/event-types" }, { tenancy: false });

describe("GET /event-types", () => {
  it("lists every type with its label, description and whether the log keeps it", async () => {
    const a = await newAccount();
    const res = await a.api("GET", "/event-types");
    expect(res.status, res.text).toBe(200);
    const types = res.body.data.map((t: { type: string }) => t.type);
    expect(types).toEqual(["geofence.entry", "geofence.exit", "geofence.dwell", "location.updated", "battery.low", "device.status_changed", "trip.started", "trip.ended", "speed.exceeded"]);
    for (const t of res.body.data) {
      expect(Object.keys(t)).toEqual(["type", "label", "description", "recorded"]);
      expect(t.label.length, t.type).toBeGreaterThan(0);
      expect(t.description.length, t.type).toBeGreaterThan(0);
      expect(t.recorded, t.type).toBe(t.type !== "location.updated");
    }
  });
});

describe("device.status_changed in the events log", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { DEVICE_OFFLINE_AFTER_S: "2" } });
    useServer(server);
  });
  afterAll(async () => {
    useServer(null);
    await server?.stop();
  });

  async function until<T>(what: string, get: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await get();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it("records previous and current: online on a location, offline after the cut-off; other types have no status", async () => {
    const a = await newAccount();
    const t = (await a.api("POST", "/trackables", { name: "Courier" })).body;
    const posted = await a.api("POST", `/trackables/${t.id}/locations`, {
      locations: [{ latitude: 52.52, longitude: 13.405, battery: 10, timestamp: new Date(Date.now() - 1000).toISOString() }],
    });
    expect(posted.status, posted.text).toBeLessThan(300);
    const statusEvents = async () => (await a.api("GET", `/events?trackableId=${t.id}&type=device.status_changed`)).body.data;
    const both = await until("online then offline", async () => {
      const list = await statusEvents();
      return list.length === 2 ? list : undefined;
    });
    // Newest first: the sweep's offline, then the online the location brought.
    expect(both.map((e: { status: unknown }) => e.status)).toEqual([
      { previous: "online", current: "offline" },
      { previous: "offline", current: "online" },
    ]);
    const one = await a.api("GET", `/events/${both[1].id}`);
    expect(one.body.status).toEqual({ previous: "offline", current: "online" });
    const low = (await a.api("GET", `/events?trackableId=${t.id}&type=battery.low`)).body.data;
    expect(low).toHaveLength(1);
    expect(low[0]).not.toHaveProperty("status");
  });
});
