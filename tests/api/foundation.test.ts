import { describe, expect, it } from "vitest";
import { newAccount, request } from "../harness/client";
import { awayFromWindowEdge } from "../support/window-edge";

describe("routing and the error envelope", () => {
  it("unknown routes under /api/v1 give the JSON 404", async () => {
    for (const path of ["/api/v1", "/api/v1/nope", "/api/v1/trackables/x/y/z", "/api/v1/geofences/a/b/c/d"]) {
      const res = await request("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("application/json");
      expect(res.body.error.code, path).toBe("not_found");
    }
  });

  it("a wrong method gives the JSON 405 with Allow", async () => {
    const { key } = await newAccount();
    const res = await request("PUT", "/api/v1/trackables", { key, body: {} });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toContain("GET");
    expect(res.headers.get("allow")).toContain("POST");
    const del = await request("DELETE", "/api/v1/trackables", { key });
    expect(del.status).toBe(405);
  });

  it("a body over 1 MiB gives 413 payload_too_large, announced or streamed", async () => {
    const { key } = await newAccount();
    const big = JSON.stringify({ name: "x", metadata: { blob: "a".repeat(1024 * 1024 + 10) } });
    const res = await request("POST", "/api/v1/trackables", { key, body: big });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");

    // Without Content-Length (chunked), the limit holds while reading.
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await fetch(`${(await import("../harness/client")).baseUrl()}/api/v1/trackables`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).error.code).toBe("payload_too_large");
  });

  it("the error envelope has exactly code and message", async () => {
    const res = await request("GET", "/api/v1/trackables");
    expect(res.status).toBe(401);
    expect(Object.keys(res.body)).toEqual(["error"]);
    expect(Object.keys(res.body.error).sort()).toEqual(["code", "message"]);
  });
});

describe("rate limit", () => {
  it("of 150 simultaneous requests on a fresh key exactly 100 pass; 429s carry Retry-After", async () => {
    const { key } = await newAccount();
    await awayFromWindowEdge();
    const results = await Promise.all(Array.from({ length: 150 }, () => request("GET", "/api/v1/trackables?limit=1", { key })));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok.length).toBe(100);
    expect(limited.length).toBe(50);
    for (const r of limited) {
      expect(r.body.error.code).toBe("rate_limit_exceeded");
      const retryAfter = Number(r.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(r.headers.get("x-ratelimit-limit")).toBe("100");
    }
    const remaining = ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining[0]).toBe(0);
    expect(remaining[99]).toBe(99);
  });

  it("the limit is per key: another key of the same account has its own budget", async () => {
    const account = await newAccount();
    await awayFromWindowEdge();
    await Promise.all(Array.from({ length: 100 }, () => account.api("GET", "/trackables?limit=1")));
    expect((await account.api("GET", "/trackables?limit=1")).status).toBe(429);
    const other = await account.newKey();
    expect((await request("GET", "/api/v1/trackables?limit=1", { key: other })).status).toBe(200);
  });
});

describe("API keys", () => {
  it("a key in use stops working the moment it is revoked (the server's cache of verified keys is dropped)", async () => {
    const account = await newAccount();
    for (let i = 0; i < 3; i++) expect((await account.api("GET", "/trackables?limit=1")).status).toBe(200);
    await account.revoke();
    const res = await account.api("GET", "/trackables?limit=1");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
  });
});

describe("health", () => {
  it("GET /api/health reports the database", async () => {
    const res = await request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });
});
