import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts, apiKeys, type ApiKeyRow } from "@/lib/db/schema";
import type { AccountRef } from "@/lib/context";

export const KEY_PREFIX = "fl_";
const START_LENGTH = KEY_PREFIX.length + 6;
// Written at most this often per key, so a busy key costs one UPDATE a minute, not one per request.
const LAST_USED_INTERVAL_MS = 60_000;
/**
 * A verified key is remembered in the process this long, so a busy key costs one look-up per interval, not one per
 * request. Revoking through this process forgets it at once; another process (a second app server on the same
 * Postgres, or apikey:revoke run with the server down) is noticed within this bound.
 */
export const KEY_CACHE_TTL_MS = 15_000;
const KEY_CACHE_MAX = 10_000;

export const hashKey = (key: string): string => createHash("sha256").update(key).digest("hex");

/** "fl_" + 192 random bits in base64url (32 characters). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(24).toString("base64url");
}

export interface ApiKeyView {
  id: string;
  name: string;
  start: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const view = (row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  start: row.start,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

/** Creates a key; the plaintext is in the result and nowhere else, ever. */
export async function createApiKey({ db, accountId, name }: { db: Db; accountId: string; name: string }) {
  const key = generateKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ accountId, name, hash: hashKey(key), start: key.slice(0, START_LENGTH) })
    .returning();
  return { key, apiKey: view(row!) };
}

export async function listApiKeys({ db, accountId }: { db: Db; accountId: string }): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(view);
}

/** Revokes a key of the account; false when there is no such (unrevoked) key. */
export async function revokeApiKey({ db, accountId, id }: { db: Db; accountId: string; id: string }): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  forgetVerifiedKeys({ keyId: id });
  return rows.length > 0;
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
  account: AccountRef;
}

// On globalThis: Next.js may load this module once per route bundle, and all must share one cache and one generation
// (a dashboard action that revokes a key and a route handler that verifies it may be different copies of the module).
interface KeyCacheState {
  /** Verified keys by hash. */
  entries: Map<string, { verified: VerifiedKey; until: number }>;
  /** Bumped by every forget: a look-up that started before a revocation must not cache what it read. */
  generation: number;
  /** When each key's lastUsedAt was last written. */
  lastTouched: Map<string, number>;
}
const globalForKeys = globalThis as unknown as { __fencelineKeyCache?: KeyCacheState };
const state = (): KeyCacheState =>
  (globalForKeys.__fencelineKeyCache ??= { entries: new Map(), generation: 0, lastTouched: new Map() });
const keyCache = () => state().entries;

/** Drops cached verifications of a key, or of every key of an account (revocation, plan change). */
export function forgetVerifiedKeys(match: { keyId?: string; accountId?: string }): void {
  state().generation++;
  for (const [hash, entry] of keyCache()) {
    if (entry.verified.keyId === match.keyId || entry.verified.account.id === match.accountId) keyCache().delete(hash);
  }
}

/** Looks a presented key up by its hash (or in the short-lived cache of verified keys). Unknown, malformed or revoked: null. */
export async function verifyApiKey(db: Db, presented: string, now = Date.now()): Promise<VerifiedKey | null> {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 128) return null;
  const hash = hashKey(presented);
  const cache = keyCache();
  const cached = cache.get(hash);
  if (cached && cached.until > now) {
    touchLastUsed(db, cached.verified.keyId);
    return cached.verified;
  }
  cache.delete(hash);
  const startedAt = state().generation;
  const [row] = await db
    .select({ keyId: apiKeys.id, revokedAt: apiKeys.revokedAt, accountId: accounts.id, plan: accounts.plan })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  if (!row || row.revokedAt) return null;
  const verified: VerifiedKey = { keyId: row.keyId, account: { id: row.accountId, plan: row.plan } };
  // Unknown keys are never cached (random guesses cannot fill memory); the oldest entry goes when full.
  if (startedAt === state().generation) {
    if (cache.size >= KEY_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(hash, { verified, until: now + KEY_CACHE_TTL_MS });
  }
  touchLastUsed(db, row.keyId);
  return verified;
}

/** Records use of a key without making the request wait for it (and at most once a minute per key). */
function touchLastUsed(db: Db, keyId: string) {
  const now = Date.now();
  const { lastTouched } = state();
  if (now - (lastTouched.get(keyId) ?? 0) < LAST_USED_INTERVAL_MS) return;
  lastTouched.set(keyId, now);
  if (lastTouched.size > 10_000) {
    for (const [id, at] of lastTouched) if (now - at >= LAST_USED_INTERVAL_MS) lastTouched.delete(id);
  }
  void db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(apiKeys.id, keyId))
    .catch((err: unknown) => console.error("[api-keys] could not record lastUsedAt:", err));
}
