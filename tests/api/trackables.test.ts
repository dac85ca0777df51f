import { describe, expect, it } from "vitest";
import { newAccount, type ApiResponse } from "../harness/client";
import { securitySuite } from "../harness/security";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function trackableOf(owner: Awaited<ReturnType<typeof newAccount>>) {
  const res = await owner.api("POST", "/trackables", { name: "Owned" });
  return res.body.id as string;
}

securitySuite("GET /trackables", { method: "GET", path: () => "/trackables" }, { tenancy: false });
securitySuite("POST /trackables", { method: "POST", path: () => "/trackables", body: { name: "x" } }, { tenancy: false });
securitySuite("GET /trackables/{id}", { method: "GET", path: async (o) => `/trackables/${await trackableOf(o)}` });
securitySuite("PATCH /trackables/{id}", { method: "PATCH", path: async (o) => `/trackables/${await trackableOf(o)}`, body: { name: "y" } });
securitySuite("DELETE /trackables/{id}", { method: "DELETE", path: async (o) => `/trackables/${await trackableOf(o)}` });

describe("trackables", () => {
  it("creates with defaults and reads it back", async () => {
    const a = await newAccount();
    const created = await a.api("POST", "/trackables", { name: "  Van 12  " });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "Van 12",
      type: "device",
      metadata: {},
      tracking: "active",
      lastLocation: null,
      motion: { minTripDistance: 200, minStopDuration: 180, stopGap: 3600, speedLimit: null, speedMinDuration: 10 },
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const got = await a.api("GET", `/trackables/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
  });

  it("creates with type and metadata", async () => {
    const a = await newAccount();
    const res = await a.api("POST", "/trackables", { name: "Truck", type: "vehicle", metadata: { fleet: "north", n: [1, 2] } });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe("vehicle");
    expect(res.body.metadata).toEqual({ fleet: "north", n: [1, 2] });
  });

  it("validates every field and names each offender", async () => {
    const a = await newAccount();
    const cases: Array<[unknown, string[]]> = [
      [{}, ["name"]],
      [{ name: "" }, ["name"]],
      [{ name: "   " }, ["name"]],
      [{ name: "x".repeat(101) }, ["name"]],
      [{ name: 5 }, ["name"]],
      [{ name: "ok", type: "" }, ["type"]],
      [{ name: "ok", type: "t".repeat(41) }, ["type"]],
      [{ name: "ok", metadata: "nope" }, ["metadata"]],
      [{ name: "ok", metadata: [1] }, ["metadata"]],
      [{ name: "ok", metadata: { big: "b".repeat(4100) } }, ["metadata"]],
      [{ name: "ok", extra: 1 }, ["extra"]],
      [{ name: "", type: "", metadata: 1, bogus: true }, ["name", "type", "metadata", "bogus"]],
    ];
    for (const [body, fields] of cases) {
      const res = await a.api("POST", "/trackables", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      for (const f of fields) expect(res.body.error.message, JSON.stringify(body)).toContain(f);
    }
  });

  it("accepts metadata of exactly the limit and refuses a byte more", async () => {
    const a = await newAccount();
    const overhead = JSON.stringify({ k: "" }).length;
    const exact = await a.api("POST", "/trackables", { name: "m", metadata: { k: "x".repeat(4096 - overhead) } });
    expect(exact.status).toBe(201);
    const over = await a.api("POST", "/trackables", { name: "m", metadata: { k: "x".repeat(4097 - overhead) } });
    expect(over.status).toBe(400);
  });

  it("lists newest first with cursor pagination and no duplicates", async () => {
    const a = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await a.api("POST", "/trackables", { name: `T${i}` })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: ApiResponse = await a.api("GET", `/trackables?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((t: { id: string }) => t.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it("list defaults to 20 and validates limit and cursor", async () => {
    const a = await newAccount();
    const empty = await a.api("GET", "/trackables");
    expect(empty.body).toEqual({ data: [], nextCursor: null });
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=1.5", "cursor=garbage!!"]) {
      const res = await a.api("GET", `/trackables?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect((await a.api("GET", "/trackables?limit=100&unknown=1")).status).toBe(200);
  });

  it("updates name, type and metadata; validates the patch", async () => {
    const a = await newAccount();
    const { id, updatedAt } = (await a.api("POST", "/trackables", { name: "Old", metadata: { a: 1 } })).body;
    const res = await a.api("PATCH", `/trackables/${id}`, { name: "New", type: "phone", metadata: { b: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: "New", type: "phone", metadata: { b: 2 } });
    expect(res.body.updatedAt >= updatedAt).toBe(true);
    expect((await a.api("PATCH", `/trackables/${id}`, {})).status).toBe(200);
    const bad = await a.api("PATCH", `/trackables/${id}`, { name: "", id: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("name");
    expect(bad.body.error.message).toContain("id");
  });

  it("deletes (204), then 404", async () => {
    const a = await newAccount();
    const { id } = (await a.api("POST", "/trackables", { name: "Gone" })).body;
    const del = await a.api("DELETE", `/trackables/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await a.api("GET", `/trackables/${id}`)).status).toBe(404);
    expect((await a.api("DELETE", `/trackables/${id}`)).status).toBe(404);
  });

  it("unknown and malformed ids are 404; a blank id is 400", async () => {
    const a = await newAccount();
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const res = await a.api("GET", `/trackables/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const blank = await a.api("GET", "/trackables/%20");
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe("Missing required parameter: trackableId");
  });

  it("one account never sees another's trackables", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const { id } = (await a.api("POST", "/trackables", { name: "Private" })).body;
    expect((await b.api("GET", "/trackables")).body.data).toEqual([]);
    expect((await b.api("GET", `/trackables/${id}`)).status).toBe(404);
    expect((await b.api("PATCH", `/trackables/${id}`, { name: "Mine" })).status).toBe(404);
    expect((await b.api("DELETE", `/trackables/${id}`)).status).toBe(404);
    expect((await a.api("GET", `/trackables/${id}`)).body.name).toBe("Private");
  });
});
