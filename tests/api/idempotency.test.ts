import { describe, expect, it } from "vitest";
import { newAccount, request } from "../harness/client";

// Idempotency-Key on POST /api/v1/…: the first response is kept 24 hours and replayed for the same key and body.
const post = (key: string, path: string, body: unknown, idempotencyKey?: string) =>
  request("POST", `/api/v1${path}`, { key, body, headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {} });

describe("Idempotency-Key", () => {
  it("replays the first response to the same key and body, and creates nothing more", async () => {
    const a = await newAccount();
    const first = await post(a.key, "/trackables", { name: "Van" }, "create-van-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(a.key, "/trackables", { name: "Van" }, "create-van-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(again.headers.get("x-ratelimit-limit")).not.toBeNull();
    const list = await a.api("GET", "/trackables");
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([first.body.id]);
  });

  it("refuses the same key with another body (422) or on another path", async () => {
    const a = await newAccount();
    expect((await post(a.key, "/trackables", { name: "Van" }, "k-2")).status).toBe(201);
    const other = await post(a.key, "/trackables", { name: "Truck" }, "k-2");
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("idempotency_key_reused");
    expect(other.body.error.message).toContain("Idempotency-Key");
    const elsewhere = await post(a.key, "/geofences", { name: "Van" }, "k-2");
    expect(elsewhere.status).toBe(422);
  });

  it("creates one resource when the same request is sent many times at once", async () => {
    const a = await newAccount();
    const results = await Promise.all(Array.from({ length: 6 }, () => post(a.key, "/trackables", { name: "Twin" }, "concurrent-1")));
    const fresh = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r === fresh[0]) continue;
      if (r.status === 409) expect(r.body.error.code).toBe("conflict");
      else expect([r.status, r.headers.get("idempotent-replayed"), r.body.id]).toEqual([201, "true", fresh[0]!.body.id]);
    }
    expect((await a.api("GET", "/trackables")).body.data).toHaveLength(1);
  });

  it("keeps keys apart per account", async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const ofA = await post(a.key, "/trackables", { name: "Van" }, "shared-key");
    const ofB = await post(b.key, "/trackables", { name: "Van" }, "shared-key");
    expect([ofA.status, ofB.status]).toEqual([201, 201]);
    expect(ofB.headers.get("idempotent-replayed")).toBeNull();
    expect(ofB.body.id).not.toBe(ofA.body.id);
  });

  it("replays an error response too, and refuses a malformed key", async () => {
    const a = await newAccount();
    const bad = await post(a.key, "/trackables", { name: "" }, "bad-1");
    expect(bad.status).toBe(400);
    const again = await post(a.key, "/trackables", { name: "" }, "bad-1");
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([400, "true"]);
    expect(again.body).toEqual(bad.body);
    const long = await post(a.key, "/trackables", { name: "Van" }, "x".repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain("Idempotency-Key");
  });

  it("holds on the location posts' lean path: one stored point for two posts", async () => {
    const a = await newAccount();
    const trackable = (await a.api("POST", "/trackables", { name: "Van" })).body;
    const point = { latitude: 52.5, longitude: 13.4, timestamp: "2026-11-22T08:00:00.000Z" };
    const first = await post(a.key, `/trackables/${trackable.id}/locations`, point, "point-1");
    const again = await post(a.key, `/trackables/${trackable.id}/locations`, point, "point-1");
    expect([first.status, again.status, again.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"]);
    expect(again.body).toEqual(first.body);
    expect((await a.api("GET", `/trackables/${trackable.id}/locations`)).body.data).toHaveLength(1);
  });

  it("leaves requests without the header alone", async () => {
    const a = await newAccount();
    const [one, two] = [await post(a.key, "/trackables", { name: "Van" }), await post(a.key, "/trackables", { name: "Van" })];
    expect(one.body.id).not.toBe(two.body.id);
  });
});
