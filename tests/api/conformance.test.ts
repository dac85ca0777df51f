import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseUrl, newAccount, request } from "../harness/client";

// api-contract v1.1, "API conformance details": no redirects, OPTIONS agrees with 405, WWW-Authenticate on 401, 415.

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const ID = "00000000-0000-4000-8000-000000000000";

/** Every route under app/api/v1, as a path with a sample id in each dynamic segment. */
function apiRoutes(): string[] {
  const root = path.resolve("app/api/v1");
  const out: string[] = [];
  const walk = (dir: string, url: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith("[[")) continue; // the catch-all 404
      walk(path.join(dir, entry.name), `${url}/${entry.name.startsWith("[") ? ID : entry.name}`);
    }
    if (fs.existsSync(path.join(dir, "route.ts"))) out.push(url);
  };
  walk(root, "/api/v1");
  return out;
}

describe("no redirects under /api/v1", () => {
  it("an empty path segment is the blank-id 400, never a 308", async () => {
    const { key } = await newAccount();
    for (const [p, name] of [
      ["/api/v1/trackables//locations", "trackableId"],
      ["/api/v1/trackables//locations/latest", "trackableId"],
      ["/api/v1/geofences//test-webhook", "geofence_id"],
      ["/api/v1/webhooks//recover", "webhookId"],
    ] as const) {
      const res = await request(p.includes("locations") ? "GET" : "POST", p, { key, body: p.includes("locations") ? undefined : {} });
      expect(res.status, p).toBe(400);
      expect(res.body.error, p).toEqual({ code: "invalid_request", message: `Missing required parameter: ${name}` });
    }
    const trailing = await request("GET", "/api/v1/trackables//", { key });
    expect(trailing.status).toBe(400);
  });

  it("a trailing slash is served as the path without it, or a JSON 404, never a 308", async () => {
    const a = await newAccount();
    const t = (await a.api("POST", "/trackables", { name: "Slash" })).body;
    for (const p of ["/api/v1/trackables/", `/api/v1/trackables/${t.id}/`, `/api/v1/trackables/${t.id}/locations/`, "/api/v1/webhooks/", "/api/v1/openapi.json/"]) {
      const res = await request("GET", p, { key: a.key });
      expect(res.status, p).not.toBe(308);
      expect(res.headers.get("location"), p).toBeNull();
      expect(res.headers.get("content-type"), p).toContain("application/json");
      if (res.status !== 200) expect(res.body.error.code, p).toBe("not_found");
      const plain = await request("GET", p.slice(0, -1), { key: a.key });
      if (res.status === 200) expect(res.body, p).toEqual(plain.body);
    }
    const created = await request("POST", "/api/v1/trackables/", { key: a.key, body: { name: "Posted with a slash" } });
    expect(created.status).not.toBe(308);
  });
});

describe("OPTIONS and Allow", () => {
  it("every route answers OPTIONS 204 with the same Allow as its 405", async () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(15);
    for (const p of routes) {
      const options = await request("OPTIONS", p);
      expect(options.status, p).toBe(204);
      expect(options.text, p).toBe("");
      const allow = options.headers.get("allow");
      expect(allow, p).toMatch(/OPTIONS/);
      const refused = METHODS.filter((m) => !allow!.split(", ").includes(m));
      expect(refused.length, p).toBeGreaterThan(0);
      for (const m of refused) {
        const res = await request(m, p);
        expect(res.status, `${m} ${p}`).toBe(405);
        expect(res.headers.get("allow"), `${m} ${p}`).toBe(allow);
      }
      for (const m of METHODS.filter((x) => !refused.includes(x))) {
        expect((await request(m, p)).status, `${m} ${p}`).not.toBe(405);
      }
    }
  });

  it("OPTIONS on an unknown path is the JSON 404", async () => {
    const res = await request("OPTIONS", "/api/v1/nope");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("authentication challenge", () => {
  it("every 401 carries WWW-Authenticate: Bearer", async () => {
    for (const headers of [{} as Record<string, string>, { Authorization: "Basic abc" }, { Authorization: "Bearer fl_unknown_0000000000000000000000" }]) {
      const res = await request("GET", "/api/v1/trackables", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    }
    const a = await newAccount();
    expect((await a.api("GET", "/trackables")).headers.get("www-authenticate")).toBeNull();
  });
});

describe("request media type", () => {
  it("a body that is not JSON by its Content-Type is 415 unsupported_media_type", async () => {
    const { key } = await newAccount();
    const body = JSON.stringify({ name: "Typed" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "text/json"]) {
      const res = await request("POST", "/api/v1/trackables", { key, body, headers: { "Content-Type": type } });
      expect(res.status, type).toBe(415);
      expect(res.body.error.code, type).toBe("unsupported_media_type");
      expect(res.body.error.message, type).toContain("Content-Type");
    }
    // No Content-Type at all, with a body.
    const untyped = await fetch(`${baseUrl()}/api/v1/trackables`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}` },
      body: new Blob([body]),
    });
    expect(untyped.status).toBe(415);
  });

  it("application/json with a charset, or a +json type, is accepted; a bodiless POST needs no type", async () => {
    const a = await newAccount();
    for (const type of ["application/json; charset=utf-8", "Application/JSON;charset=UTF-8", "application/merge-patch+json", "application/vnd.api+json"]) {
      const res = await request("POST", "/api/v1/trackables", { key: a.key, body: { name: type }, headers: { "Content-Type": type } });
      expect(res.status, type).toBe(201);
    }
    const hook = (await a.api("POST", "/webhooks", { url: "https://example.com/h", events: ["battery.low"] })).body;
    const bare = await fetch(`${baseUrl()}/api/v1/webhooks/${hook.id}/rotate-secret`, { method: "POST", headers: { Authorization: `Bearer ${a.key}` } });
    expect(bare.status).toBe(200);
  });
});
