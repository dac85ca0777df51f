import { describe, expect, inject, it } from "vitest";
import { adminRequest } from "@/lib/http/admin-socket";
import { SCOPES } from "@/lib/api-keys/scopes";
import { request, type ApiResponse } from "../harness/client";

let counter = 0;

/** A key with these scopes (absent: the default) for the account with `slug`, made as apikey:create does. */
async function keyFor(slug: string, scopes?: string[]) {
  const res = await adminRequest(inject("adminSocket"), inject("adminToken"), "POST", "/api-keys", {
    account: slug,
    plan: "enterprise",
    ...(scopes ? { scopes } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { key: string; scopes: string[] };
}

async function workspace() {
  const slug = `scopes-${Date.now().toString(36)}-${process.pid}-${counter++}`;
  const full = await keyFor(slug);
  const api = (key: string) => (method: string, path: string, body?: unknown) => request(method, `/api/v1${path}`, { key, body });
  const trackable = await api(full.key)("POST", "/trackables", { name: "Van 12", type: "vehicle" });
  expect(trackable.status).toBe(201);
  return { slug, full, api, trackableId: trackable.body.id as string };
}

function expectRefused(res: ApiResponse, scope: string) {
  expect(res.status, res.text).toBe(403);
  expect(res.body).toEqual({ error: { code: "insufficient_scope", message: expect.stringContaining(scope), scope } });
}

/** Through the scope check: a read succeeds, a write of an empty body reaches validation (400). */
function expectAllowed(res: ApiResponse, method: string) {
  if (method === "GET") expect(res.status, res.text).toBe(200);
  else expect([400, 201], res.text).toContain(res.status);
}

// One read and one write per family (events has no write scope).
const FAMILY_CALLS: { scope: string; method: string; path: (trackableId: string) => string }[] = [
  { scope: "trackables:read", method: "GET", path: () => "/trackables" },
  { scope: "trackables:write", method: "POST", path: () => "/trackables" },
  { scope: "locations:read", method: "GET", path: (t) => `/trackables/${t}/locations` },
  { scope: "locations:write", method: "POST", path: (t) => `/trackables/${t}/locations` },
  { scope: "geofences:read", method: "GET", path: () => "/geofences" },
  { scope: "geofences:write", method: "POST", path: () => "/geofences" },
  { scope: "webhooks:read", method: "GET", path: () => "/webhooks" },
  { scope: "webhooks:write", method: "POST", path: () => "/webhooks" },
  { scope: "events:read", method: "GET", path: () => "/events" },
  { scope: "share-links:read", method: "GET", path: () => "/share-links" },
  { scope: "share-links:write", method: "POST", path: () => "/share-links" },
  { scope: "notifications:read", method: "GET", path: () => "/notification-channels" },
  { scope: "notifications:write", method: "POST", path: () => "/notification-channels" },
];

describe("scoped API keys", () => {
  it("covers every scope of the contract", () => {
    expect(FAMILY_CALLS.map((c) => c.scope).sort()).toEqual([...SCOPES].sort());
  });

  it.each(FAMILY_CALLS)("$scope: allowed with that scope, refused (403 naming it) without", async ({ scope, method, path }) => {
    const w = await workspace();
    const other = SCOPES.filter((s) => s !== scope);
    const withIt = await keyFor(w.slug, [scope]);
    const withoutIt = await keyFor(w.slug, other);
    expect(withIt.scopes).toEqual([scope]);
    const body = method === "GET" ? undefined : {};
    expectAllowed(await w.api(withIt.key)(method, path(w.trackableId), body), method);
    expectAllowed(await w.api(w.full.key)(method, path(w.trackableId), body), method);
    const refused = await w.api(withoutIt.key)(method, path(w.trackableId), body);
    expectRefused(refused, scope);
    // A refused request is still counted and carries the rate-limit headers, like every authenticated answer.
    expect(refused.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  });

  it("a read scope does not grant the write, nor the reverse", async () => {
    const w = await workspace();
    const reader = await keyFor(w.slug, ["trackables:read"]);
    expectRefused(await w.api(reader.key)("PATCH", `/trackables/${w.trackableId}`, { name: "x" }), "trackables:write");
    expectRefused(await w.api(reader.key)("DELETE", `/trackables/${w.trackableId}`), "trackables:write");
    const writer = await keyFor(w.slug, ["locations:write"]);
    expect((await w.api(writer.key)("POST", `/trackables/${w.trackableId}/locations`, { latitude: 52.5, longitude: 13.4 })).status).toBe(201);
    expectRefused(await w.api(writer.key)("GET", `/trackables/${w.trackableId}/locations/latest`), "locations:read");
    expectRefused(await w.api(writer.key)("GET", `/trackables/${w.trackableId}`), "trackables:read");
  });

  it("the live stream and its tokens need events:read", async () => {
    const w = await workspace();
    const writer = await keyFor(w.slug, ["locations:write"]);
    expectRefused(await w.api(writer.key)("POST", "/stream-tokens", {}), "events:read");
    expectRefused(await w.api(writer.key)("GET", "/stream"), "events:read");
    const reader = await keyFor(w.slug, ["events:read"]);
    expect((await w.api(reader.key)("POST", "/stream-tokens", {})).status).toBe(201);
  });

  it("keeps tenancy: a scoped key gets 404 for another workspace's objects", async () => {
    const owner = await workspace();
    const stranger = await workspace();
    const key = await keyFor(stranger.slug, ["locations:read", "trackables:read"]);
    const res = await stranger.api(key.key)("GET", `/trackables/${owner.trackableId}/locations`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("the default key holds every scope; the operator endpoint refuses unknown scopes", async () => {
    const w = await workspace();
    expect(w.full.scopes).toEqual(["*"]);
    const res = await adminRequest(inject("adminSocket"), inject("adminToken"), "POST", "/api-keys", { account: w.slug, scopes: ["trackables:delete"] });
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toContain("scopes");
  });

  it("the OpenAPI document names each operation's scope", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    const op = doc.paths["/trackables/{trackableId}/locations"];
    expect(op.post.security).toEqual([{ bearerAuth: ["locations:write"] }]);
    expect(op.post["x-required-scope"]).toBe("locations:write");
    expect(op.get.security).toEqual([{ bearerAuth: ["locations:read"] }]);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.security, `${method} ${path}`).toHaveLength(1);
        expect(operation.responses["403"], `${method} ${path}`).toBeDefined();
      }
    }
  });
});
