import { describe, expect, it } from "vitest";
import { newAccount, type TestAccount } from "../harness/client";
import { securitySuite } from "../harness/security";

const URL_OK = "https://example.com/hooks/fenceline";
const hookOf = async (o: TestAccount) => (await o.api("POST", "/webhooks", { url: URL_OK, events: ["geofence.entry"] })).body.id as string;

securitySuite("GET /webhooks", { method: "GET", path: () => "/webhooks" }, { tenancy: false });
securitySuite("GET /webhooks/{id}", { method: "GET", path: async (o) => `/webhooks/${await hookOf(o)}` });
securitySuite("PATCH /webhooks/{id}", { method: "PATCH", path: async (o) => `/webhooks/${await hookOf(o)}`, body: { enabled: false } });
securitySuite("DELETE /webhooks/{id}", { method: "DELETE", path: async (o) => `/webhooks/${await hookOf(o)}` });

describe("account webhooks", () => {
  it("creates with defaults, never returns the secret, updates and deletes", async () => {
    const a = await newAccount();
    const created = await a.api("POST", "/webhooks", { url: URL_OK, events: ["geofence.entry", "battery.low"], secret: "a-very-secret-value" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: URL_OK, events: ["geofence.entry", "battery.low"], enabled: true, description: "", secretSet: true });
    expect(created.text).not.toContain("a-very-secret-value");
    const id = created.body.id;
    const patched = await a.api("PATCH", `/webhooks/${id}`, { enabled: false, secret: null, description: "ops" });
    expect(patched.body).toMatchObject({ enabled: false, secretSet: false, description: "ops" });
    const list = await a.api("GET", "/webhooks");
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await a.api("DELETE", `/webhooks/${id}`)).status).toBe(204);
    expect((await a.api("GET", `/webhooks/${id}`)).status).toBe(404);
  });

  it("validates url, events, secret and unknown fields, naming each", async () => {
    const a = await newAccount();
    const cases: Array<[unknown, string]> = [
      [{ events: ["geofence.entry"] }, "url"],
      [{ url: "http://example.com/x", events: ["geofence.entry"] }, "url"],
      [{ url: "https://localhost/x", events: ["geofence.entry"] }, "url"],
      [{ url: "https://10.0.0.1/x", events: ["geofence.entry"] }, "url"],
      [{ url: URL_OK }, "events"],
      [{ url: URL_OK, events: [] }, "events"],
      [{ url: URL_OK, events: ["geofence.enter"] }, "events"],
      [{ url: URL_OK, events: ["battery.low", "battery.low"] }, "events"],
      [{ url: URL_OK, events: ["battery.low"], secret: "short" }, "secret"],
      [{ url: URL_OK, events: ["battery.low"], bogus: 1 }, "bogus"],
    ];
    for (const [body, field] of cases) {
      const res = await a.api("POST", "/webhooks", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toContain(field);
    }
  });

  it("another account cannot see, change or delete an endpoint", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const id = await hookOf(a);
    expect((await b.api("GET", `/webhooks/${id}`)).status).toBe(404);
    expect((await b.api("PATCH", `/webhooks/${id}`, { enabled: false })).status).toBe(404);
    expect((await b.api("DELETE", `/webhooks/${id}`)).status).toBe(404);
    expect((await b.api("GET", "/webhooks")).body.data).toEqual([]);
  });
});
