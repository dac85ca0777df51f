import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyKeys } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { KEY_TTL_MS, purgeExpiredIdempotencyKeys, withIdempotencyKey } from "./idempotency";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("idempotency");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

const req = (body: string) => new Request("http://localhost/api/v1/trackables", { method: "POST", body, headers: { "content-type": "application/json" } });
const created = (id: string) => async () => new Response(JSON.stringify({ id }), { status: 201, headers: { "content-type": "application/json" } });

describe("idempotency keys", () => {
  it("purges the keys past their 24 hours and keeps the others", async () => {
    const ctx = await unit.account();
    const old = new Date(Date.now() - KEY_TTL_MS - 60_000);
    await unit.db.insert(idempotencyKeys).values([
      { accountId: ctx.account.id, key: "old", requestHash: "h", responseStatus: 201, createdAt: old, claimedAt: old },
      { accountId: ctx.account.id, key: "new", requestHash: "h", responseStatus: 201 },
    ]);
    expect(await purgeExpiredIdempotencyKeys(unit.db)).toBeGreaterThanOrEqual(1);
    const left = await unit.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.accountId, ctx.account.id));
    expect(left.map((r) => r.key)).toEqual(["new"]);
  });

  it("runs again once a key has expired, and releases a key whose request failed with a 5xx", async () => {
    const ctx = await unit.account();
    const first = await withIdempotencyKey(unit.db, ctx.account.id, "k", req("{}"), created("a"));
    expect(await first.json()).toEqual({ id: "a" });
    const replayed = await withIdempotencyKey(unit.db, ctx.account.id, "k", req("{}"), created("b"));
    expect([replayed.headers.get("idempotent-replayed"), await replayed.json()]).toEqual(["true", { id: "a" }]);

    const old = new Date(Date.now() - KEY_TTL_MS - 1000);
    await unit.db.update(idempotencyKeys).set({ createdAt: old }).where(and(eq(idempotencyKeys.accountId, ctx.account.id), eq(idempotencyKeys.key, "k")));
    expect(await (await withIdempotencyKey(unit.db, ctx.account.id, "k", req("{}"), created("c"))).json()).toEqual({ id: "c" });

    const failed = await withIdempotencyKey(unit.db, ctx.account.id, "f", req("{}"), async () => new Response("{}", { status: 503 }));
    expect(failed.status).toBe(503);
    expect(await (await withIdempotencyKey(unit.db, ctx.account.id, "f", req("{}"), created("d"))).json()).toEqual({ id: "d" });
  });
});
