import { describe, expect, it } from "vitest";
import { newAccount, request, type TestAccount } from "./client";

export interface RouteUnderTest {
  method: string;
  /** Builds the path (under /api/v1) for an account that owns the objects it names. */
  path: (owner: TestAccount) => Promise<string> | string;
  body?: unknown;
  /** The media type of a successful answer (default application/json; a download has its own). */
  contentType?: string;
}

/**
 * The shared security suite every authenticated route runs (Unkey's common-tests): no key, a malformed header, an
 * unknown key and a revoked key are 401 with the error envelope; a valid key gets the rate-limit headers; and
 * another account's key cannot see the owner's object (404, indistinguishable from a missing one).
 */
export function securitySuite(name: string, r: RouteUnderTest, opts: { tenancy?: boolean } = {}) {
  describe(`security: ${name}`, () => {
    const call = async (path: string, headers: Record<string, string>) =>
      request(r.method, `/api/v1${path}`, { headers, body: r.body });

    it("401 without an Authorization header", async () => {
      const owner = await newAccount();
      const res = await call(await r.path(owner), {});
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    });

    it("401 with a malformed or unknown key", async () => {
      const owner = await newAccount();
      const path = await r.path(owner);
      for (const header of ["Basic abc", "Bearer", `Bearer ${owner.key}x`, "Bearer fl_not-a-real-key-0000000000000000000", owner.key]) {
        const res = await call(path, { Authorization: header });
        expect(res.status, header).toBe(401);
        expect(res.body).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
      }
    });

    it("401 with a revoked key", async () => {
      const owner = await newAccount();
      const path = await r.path(owner);
      await owner.revoke();
      const res = await call(path, { Authorization: `Bearer ${owner.key}` });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    });

    it("an authenticated response carries the rate-limit headers", async () => {
      const owner = await newAccount();
      const res = await call(await r.path(owner), { Authorization: `Bearer ${owner.key}` });
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
      if (res.status !== 204) expect(res.headers.get("content-type")).toContain(res.status < 300 ? (r.contentType ?? "application/json") : "application/json");
    });

    if (opts.tenancy !== false) {
      it("another account's key gets 404 for the owner's object", async () => {
        const owner = await newAccount();
        const stranger = await newAccount();
        const res = await call(await r.path(owner), { Authorization: `Bearer ${stranger.key}` });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      });
    }
  });
}
