import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAccount } from "@/lib/accounts/accounts";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { provisionApiKey } from "./provision";
import { generateKey, hashKey, KEY_CACHE_TTL_MS, revokeApiKey, revokeApiKeyById, verifyApiKey } from "./keys";

// The in-process cache of verified keys: a revocation through this process takes effect at once; one made elsewhere
// (another process writing the database) within KEY_CACHE_TTL_MS.
let db: Db;
let close: (() => Promise<void>) | undefined;
let n = 0;
const slug = () => `keys-${process.pid}-${Date.now().toString(36)}-${n++}`;

beforeAll(async () => {
  ({ db, close } = await openUnitDb("keys"));
}, 120_000);

afterAll(async () => close?.());

describe("verifyApiKey cache", () => {
  it("serves a verified key from memory, and notices a revocation made by another process within the TTL", async () => {
    const { key, keyId } = await provisionApiKey(db, { account: slug() });
    const now = Date.now();
    expect((await verifyApiKey(db, key, now))?.keyId).toBe(keyId);
    // Another process revokes it: written to the database behind this process's back.
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    expect((await verifyApiKey(db, key, now + 1000))?.keyId).toBe(keyId);
    expect(await verifyApiKey(db, key, now + KEY_CACHE_TTL_MS + 1)).toBeNull();
  });

  it("forgets a key at once when it is revoked through this process (operator or account revocation)", async () => {
    const a = await provisionApiKey(db, { account: slug() });
    expect(await verifyApiKey(db, a.key)).not.toBeNull();
    expect(await revokeApiKeyById(db, a.keyId)).toBe(true);
    expect(await verifyApiKey(db, a.key)).toBeNull();

    const b = await provisionApiKey(db, { account: slug() });
    expect(await verifyApiKey(db, b.key)).not.toBeNull();
    expect(await revokeApiKey({ ctx: { account: { id: b.accountId, plan: "enterprise" }, db }, id: b.keyId })).toBe(true);
    expect(await verifyApiKey(db, b.key)).toBeNull();
  });

  it("does not cache a look-up that was in flight when the key was revoked", async () => {
    const { key, keyId } = await provisionApiKey(db, { account: slug() });
    const inFlight = verifyApiKey(db, key);
    await revokeApiKeyById(db, keyId);
    await inFlight; // may or may not have seen the revocation; either way it must not be remembered
    expect(await verifyApiKey(db, key)).toBeNull();
  });

  it("looks the plan up again after it changes", async () => {
    const account = slug();
    const { key } = await provisionApiKey(db, { account, plan: "free" });
    expect((await verifyApiKey(db, key))?.account.plan).toBe("free");
    await ensureAccount(db, { slug: account, plan: "enterprise" });
    expect((await verifyApiKey(db, key))?.account.plan).toBe("enterprise");
  });

  it("never caches unknown or malformed keys: a key unknown at first works as soon as it exists", async () => {
    const { accountId } = await provisionApiKey(db, { account: slug() });
    const later = generateKey();
    expect(await verifyApiKey(db, later)).toBeNull();
    expect(await verifyApiKey(db, "nope")).toBeNull();
    // The same key is then created (what a concurrent createApiKey would do): no cached "unknown" may hide it.
    const [row] = await db
      .insert(apiKeys)
      .values({ accountId, name: "late", hash: hashKey(later), start: later.slice(0, 9) })
      .returning({ id: apiKeys.id });
    expect((await verifyApiKey(db, later))?.keyId).toBe(row!.id);
  });
});
