import { randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts, apiKeys, type ApiKeyRow } from "@/lib/db/schema";
import { audit } from "@/lib/audit/audit";
import { withTransaction, type AccountRef, type Ctx } from "@/lib/context";
import { sha256Hex, VerifiedCache } from "@/lib/credentials/verified-cache";
import { FULL_ACCESS } from "./scopes";

export const KEY_PREFIX = "fl_";
const START_LENGTH = KEY_PREFIX.length + 6;
/**
 * A verified key is remembered in the process this long, so a busy key costs one look-up per interval, not one per
 * request. Revoking through this process forgets it at once; another process (a second app server on the same
 * Postgres, or apikey:revoke run with the server down) is noticed within this bound.
 */
export const KEY_CACHE_TTL_MS = 15_000;
const KEY_CACHE_MAX = 10_000;

export const hashKey = sha256Hex;

/** "fl_" + 192 random bits in base64url (32 characters). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(24).toString("base64url");
}

export interface ApiKeyView {
  id: string;
  name: string;
  start: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What the audit log shows of a key (never its hash). */
const auditView = (row: ApiKeyRow) => ({ name: row.name, start: row.start, scopes: row.scopes, revokedAt: row.revokedAt });

const view = (row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  start: row.start,
  scopes: row.scopes,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

/** Creates a key for ctx's account; the plaintext is in the result and nowhere else, ever. */
export async function createApiKey({ ctx, name, scopes = [FULL_ACCESS] }: { ctx: Ctx; name: string; scopes?: string[] }) {
  const key = generateKey();
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx
      .insert(apiKeys)
      .values({ accountId: ctx.account.id, name, hash: hashKey(key), start: key.slice(0, START_LENGTH), scopes })
      .returning();
    await audit(tx, { action: "apiKey.created", objectType: "apiKey", objectId: row!.id, after: auditView(row!) });
    return { key, apiKey: view(row!) };
  });
}

export async function listApiKeys({ db, accountId }: { db: Db; accountId: string }): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(view);
}

/** Revokes a key of ctx's account; false when there is no such (unrevoked) key. */
export async function revokeApiKey({ ctx, id }: { ctx: Ctx; id: string }): Promise<boolean> {
  const revoked = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, ctx.account.id), isNull(apiKeys.revokedAt)))
      .returning();
    if (row) await audit(tx, { action: "apiKey.revoked", objectType: "apiKey", objectId: id, before: { ...auditView(row), revokedAt: null }, after: auditView(row) });
    return Boolean(row);
  });
  forgetVerifiedKeys({ keyId: id });
  return revoked;
}

/** Operator revocation (apikey:revoke): by id, whatever the account; false when unknown or already revoked. */
export async function revokeApiKeyById(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  forgetVerifiedKeys({ keyId: id });
  return rows.length > 0;
}

export interface VerifiedKey {
  keyId: string;
  /** The key's name, as the audit log names the actor. */
  name: string;
  account: AccountRef;
  /** Fixed when the key is made, so a cached verification never holds stale scopes. */
  scopes: string[];
}

const keyCache = new VerifiedCache<VerifiedKey>("apiKeyCache", { ttlMs: KEY_CACHE_TTL_MS, max: KEY_CACHE_MAX });

/** Drops cached verifications of a key, or of every key of an account (revocation, plan change). */
export function forgetVerifiedKeys(match: { keyId?: string; accountId?: string }): void {
  keyCache.forget((v) => v.keyId === match.keyId || v.account.id === match.accountId);
}

/** Looks a presented key up by its hash (or in the short-lived cache of verified keys). Unknown, malformed or revoked: null. */
export async function verifyApiKey(db: Db, presented: string, now = Date.now()): Promise<VerifiedKey | null> {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 128) return null;
  const hash = hashKey(presented);
  const cached = keyCache.get(hash, now);
  if (cached) {
    touchLastUsed(db, cached.keyId);
    return cached;
  }
  const startedAt = keyCache.generation();
  const [row] = await db
    .select({ keyId: apiKeys.id, name: apiKeys.name, revokedAt: apiKeys.revokedAt, scopes: apiKeys.scopes, accountId: accounts.id, plan: accounts.plan })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  if (!row || row.revokedAt) return null;
  const verified: VerifiedKey = { keyId: row.keyId, name: row.name, account: { id: row.accountId, plan: row.plan }, scopes: row.scopes };
  keyCache.set(hash, verified, startedAt, now);
  touchLastUsed(db, row.keyId);
  return verified;
}

/** The key a stream token was made for, by id, while it is unrevoked (stream tokens are checked once per stream). */
export async function verifyStreamKey(db: Db, keyId: string): Promise<VerifiedKey | null> {
  const [row] = await db
    .select({ keyId: apiKeys.id, name: apiKeys.name, revokedAt: apiKeys.revokedAt, scopes: apiKeys.scopes, accountId: accounts.id, plan: accounts.plan })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.id, keyId))
    .limit(1);
  if (!row || row.revokedAt) return null;
  touchLastUsed(db, row.keyId);
  return { keyId: row.keyId, name: row.name, account: { id: row.accountId, plan: row.plan }, scopes: row.scopes };
}

/** Records use of a key without making the request wait for it (and at most once a minute per key). */
function touchLastUsed(db: Db, keyId: string) {
  keyCache.recordUse(keyId, (at) => db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId)));
}
