import { describe, expect, it } from "vitest";
import { newAccount, request } from "../harness/client";
import { securitySuite } from "../harness/security";
import { expectError, newDevice, send, storedLocations } from "../support/devices";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^fldev[A-Za-z0-9]{32}$/;

/** One point through the Traccar query form (the simplest device request). */
const ping = (token: string, lat = 52.52, lon = 13.405) => send("GET", `/ingest/traccar?id=${token}&lat=${lat}&lon=${lon}`);

async function trackable(a: Awaited<ReturnType<typeof newAccount>>, name = "Phone") {
  const res = await a.api("POST", "/trackables", { name });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("device tokens", () => {
  it("create: 201 with the token shown once (prefix + 190 random bits, letters and digits only), then listed without it", async () => {
    const a = await newAccount();
    const id = await trackable(a);
    const created = await a.api("POST", `/trackables/${id}/device-tokens`, { name: "Anna's iPhone" });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      trackableId: id,
      name: "Anna's iPhone",
      token: expect.stringMatching(TOKEN),
      prefix: created.body.token.slice(0, 11),
      createdAt: expect.stringMatching(ISO),
      lastUsedAt: null,
    });
    // No name: {} (an empty body is not JSON: 400, as on every POST).
    expect((await request("POST", `/api/v1/trackables/${id}/device-tokens`, { key: a.key })).status).toBe(400);
    const unnamed = await a.api("POST", `/trackables/${id}/device-tokens`, {});
    expect(unnamed.status, unnamed.text).toBe(201);
    expect(unnamed.body.name).toBeNull();
    expect(unnamed.body.token).not.toBe(created.body.token);

    const list = await a.api("GET", `/trackables/${id}/device-tokens`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [unnamed.body, created.body].map((t) => Object.fromEntries(Object.entries(t).filter(([k]) => k !== "token"))),
      nextCursor: null,
    });
    expect(list.text).not.toContain(created.body.token);
  });

  it("create: 400 naming an unknown field or a bad name; 404 for an unknown trackable; lists page with a cursor", async () => {
    const a = await newAccount();
    const id = await trackable(a);
    const unknown = await a.api("POST", `/trackables/${id}/device-tokens`, { name: "x", trackableId: id });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("trackableId");
    const blank = await a.api("POST", `/trackables/${id}/device-tokens`, { name: "  " });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toContain("name");
    expect((await a.api("POST", `/trackables/00000000-0000-4000-8000-000000000000/device-tokens`, {})).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await a.api("POST", `/trackables/${id}/device-tokens`, { name: `t${i}` })).status).toBe(201);
    const first = await a.api("GET", `/trackables/${id}/device-tokens?limit=2`);
    expect(first.body.data.map((t: { name: string }) => t.name)).toEqual(["t2", "t1"]);
    const second = await a.api("GET", `/trackables/${id}/device-tokens?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ name: "t0" })], nextCursor: null });
  });

  it("a token posts for its own trackable only; lastUsedAt is recorded after use", async () => {
    const { account, trackableId, token, tokenId } = await newDevice();
    const other = await trackable(account, "Other");
    expect((await ping(token)).status).toBe(200);
    expect(await storedLocations(account, trackableId)).toHaveLength(1);
    expect(await storedLocations(account, other)).toEqual([]);
    // Written off the request's path: poll until it lands.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [t] = (await account.api("GET", `/trackables/${trackableId}/device-tokens`)).body.data;
      if (t.lastUsedAt) {
        expect(t.id).toBe(tokenId);
        expect(Date.parse(t.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
        break;
      }
      if (Date.now() > deadline) throw new Error("lastUsedAt was never written");
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it("revoke: 204, refused at once by every ingestion endpoint (even right after a verified use), then 404", async () => {
    const { account, trackableId, token, tokenId } = await newDevice();
    expect((await ping(token)).status).toBe(200); // now verified and remembered by the server
    const revoked = await account.api("DELETE", `/trackables/${trackableId}/device-tokens/${tokenId}`);
    expect(revoked.status).toBe(204);
    expectError(await ping(token, 1, 1), 401, "unauthorized");
    const overland = await send("POST", "/ingest/overland", {
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ locations: [] }),
    });
    expectError(overland, 401, "unauthorized");
    expect((await storedLocations(account, trackableId)).map((l) => l.latitude)).toEqual([52.52]);
    expect((await account.api("DELETE", `/trackables/${trackableId}/device-tokens/${tokenId}`)).status).toBe(404);
    expect((await account.api("GET", `/trackables/${trackableId}/device-tokens`)).body.data).toEqual([]);
  });

  it("deleting the trackable takes its tokens with it", async () => {
    const { account, trackableId, token } = await newDevice();
    expect((await ping(token)).status).toBe(200);
    expect((await account.api("DELETE", `/trackables/${trackableId}`)).status).toBe(204);
    expectError(await ping(token), 401, "unauthorized");
  });

  it("a device token is never accepted by /api/v1, and an API key never by /ingest", async () => {
    const { account, trackableId, token } = await newDevice();
    for (const path of ["/trackables", `/trackables/${trackableId}/locations`, `/trackables/${trackableId}/device-tokens`]) {
      const res = await request("GET", `/api/v1${path}`, { key: token });
      expect(res.status, path).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    }
    const post = await request("POST", `/api/v1/trackables/${trackableId}/locations`, { key: token, body: { latitude: 1, longitude: 1 } });
    expect(post.status).toBe(401);
    expectError(await ping(account.key), 401, "unauthorized");
    expectError(
      await send("POST", "/ingest/overland", {
        headers: { Authorization: `Bearer ${account.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ locations: [] }),
      }),
      401,
      "unauthorized",
    );
    expect(await storedLocations(account, trackableId)).toEqual([]);
  });

  it("another account cannot create, list or revoke the owner's tokens (404)", async () => {
    const { account, trackableId, tokenId } = await newDevice();
    const stranger = await newAccount();
    expect((await stranger.api("POST", `/trackables/${trackableId}/device-tokens`, {})).status).toBe(404);
    expect((await stranger.api("GET", `/trackables/${trackableId}/device-tokens`)).status).toBe(404);
    expect((await stranger.api("DELETE", `/trackables/${trackableId}/device-tokens/${tokenId}`)).status).toBe(404);
    // A token id under another of the owner's trackables is not found there either.
    const other = await trackable(account, "Other");
    expect((await account.api("DELETE", `/trackables/${other}/device-tokens/${tokenId}`)).status).toBe(404);
    expect((await account.api("GET", `/trackables/${trackableId}/device-tokens`)).body.data).toHaveLength(1);
  });

  it("unknown paths under /ingest are a JSON 404", async () => {
    expectError(await send("POST", "/ingest/mqtt"), 404, "not_found");
    expectError(await send("GET", "/ingest"), 404, "not_found");
  });
});

const newTrackablePath = async (owner: Awaited<ReturnType<typeof newAccount>>) => `/trackables/${await trackable(owner)}/device-tokens`;
securitySuite("GET /trackables/{id}/device-tokens", { method: "GET", path: newTrackablePath });
securitySuite("POST /trackables/{id}/device-tokens", { method: "POST", path: newTrackablePath, body: {} });
securitySuite("DELETE /trackables/{id}/device-tokens/{tokenId}", {
  method: "DELETE",
  path: async (owner) => {
    const id = await trackable(owner);
    const created = await owner.api("POST", `/trackables/${id}/device-tokens`, {});
    return `/trackables/${id}/device-tokens/${created.body.id}`;
  },
});
