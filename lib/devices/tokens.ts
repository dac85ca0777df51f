import { randomInt } from "node:crypto";
import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { audit } from "@/lib/audit/audit";
import { omit } from "@/lib/audit/changes";
import { exec, withTransaction, type AccountRef, type Ctx } from "@/lib/context";
import { sha256Hex, VerifiedCache } from "@/lib/credentials/verified-cache";
import type { Db } from "@/lib/db/client";
import { accounts, deviceTokens, trackables, type DeviceTokenRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { iso, isoOrNull } from "@/lib/schemas/common";
import { requireTrackable } from "@/lib/trackables/trackables";
import type { CreateDeviceTokenInput, CreatedDeviceToken, DeviceToken, DeviceTokenListQuery } from "./schemas";

// Letters and digits only: apps put the token in a URL query, a Basic password or a "device identifier" field, and
// some of them mangle anything else. 32 characters of 62 carry 190 random bits.
export const TOKEN_PREFIX = "fldev";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const RANDOM_LENGTH = 32;
const TOKEN_PATTERN = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9]{${RANDOM_LENGTH}}$`);
const DISPLAY_LENGTH = TOKEN_PREFIX.length + 6;

/**
 * A verified token is remembered this long in the process. It only saves the look-up by hash: the ingest transaction
 * locks the token's row again, so a token revoked by any process stops working at once.
 */
export const TOKEN_CACHE_TTL_MS = 15_000;

export const hashDeviceToken = sha256Hex;

export function generateDeviceToken(): string {
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  return TOKEN_PREFIX + random;
}

export function serializeDeviceToken(row: DeviceTokenRow): DeviceToken {
  return {
    id: row.id,
    trackableId: row.trackableId,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.createdAt),
    lastUsedAt: isoOrNull(row.lastUsedAt),
  };
}

const auditedToken = (row: DeviceTokenRow) => omit(serializeDeviceToken(row), "lastUsedAt");

/** Creates a token for one of the account's trackables (404 otherwise); the plaintext is in the result and nowhere else. */
export async function createDeviceToken({
  ctx,
  trackableId,
  input,
}: {
  ctx: Ctx;
  trackableId: string;
  input: CreateDeviceTokenInput;
}): Promise<CreatedDeviceToken> {
  await requireTrackable(ctx, trackableId);
  const token = generateDeviceToken();
  return withTransaction(ctx, async (tx) => {
    // A trackable deleted in between fails the foreign key: the insert cannot outlive it.
    const [row] = await tx.tx
      .insert(deviceTokens)
      .values({ trackableId, name: input.name ?? null, hash: hashDeviceToken(token), prefix: token.slice(0, DISPLAY_LENGTH) })
      .returning();
    await audit(tx, { action: "deviceToken.created", objectType: "deviceToken", objectId: row!.id, after: auditedToken(row!) });
    return { ...serializeDeviceToken(row!), token };
  });
}

const DeviceTokenCursor = z.object({ id: z.uuid() });

/** One trackable's tokens, newest first, without the tokens themselves. */
export async function listDeviceTokens({ ctx, trackableId, query }: { ctx: Ctx; trackableId: string; query: DeviceTokenListQuery }) {
  await requireTrackable(ctx, trackableId);
  const after = query.cursor ? decodeCursor(query.cursor, DeviceTokenCursor) : null;
  const rows = await exec(ctx)
    .select()
    .from(deviceTokens)
    .where(and(eq(deviceTokens.trackableId, trackableId), after ? lt(deviceTokens.id, after.id) : undefined))
    .orderBy(desc(deviceTokens.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  return { data: page.map(serializeDeviceToken), nextCursor };
}

/** Revokes (deletes) a token of one of the account's trackables; it is refused from the next request on. 404 when unknown. */
export async function revokeDeviceToken({ ctx, trackableId, id }: { ctx: Ctx; trackableId: string; id: string }): Promise<void> {
  await requireTrackable(ctx, trackableId);
  const rows = await withTransaction(ctx, async (tx) => {
    const deleted = await tx.tx
      .delete(deviceTokens)
      .where(and(eq(deviceTokens.id, id), eq(deviceTokens.trackableId, trackableId)))
      .returning();
    if (deleted[0]) await audit(tx, { action: "deviceToken.revoked", objectType: "deviceToken", objectId: id, before: auditedToken(deleted[0]) });
    return deleted;
  });
  tokenCache.forget((v) => v.tokenId === id);
  if (rows.length === 0) throw notFound("Device token", id);
}

export interface VerifiedDeviceToken {
  tokenId: string;
  trackableId: string;
  account: AccountRef;
}

const tokenCache = new VerifiedCache<VerifiedDeviceToken>("deviceTokenCache", { ttlMs: TOKEN_CACHE_TTL_MS, max: 10_000 });

/**
 * Looks a presented token up by its hash (or in the short-lived cache of verified tokens): the trackable it posts for
 * and that trackable's account. Unknown or malformed (an API key, say): null.
 */
export async function verifyDeviceToken(db: Db, presented: string, now = Date.now()): Promise<VerifiedDeviceToken | null> {
  if (!TOKEN_PATTERN.test(presented)) return null;
  const hash = hashDeviceToken(presented);
  const cached = tokenCache.get(hash, now);
  if (cached) {
    recordUse(db, cached.tokenId);
    return cached;
  }
  const startedAt = tokenCache.generation();
  const [row] = await db
    .select({ tokenId: deviceTokens.id, trackableId: trackables.id, accountId: accounts.id, plan: accounts.plan })
    .from(deviceTokens)
    .innerJoin(trackables, eq(trackables.id, deviceTokens.trackableId))
    .innerJoin(accounts, eq(accounts.id, trackables.accountId))
    .where(eq(deviceTokens.hash, hash))
    .limit(1);
  if (!row) return null;
  const verified: VerifiedDeviceToken = { tokenId: row.tokenId, trackableId: row.trackableId, account: { id: row.accountId, plan: row.plan } };
  tokenCache.set(hash, verified, startedAt, now);
  recordUse(db, row.tokenId);
  return verified;
}

/** Records use of a token without making the request wait for it (and at most once a minute per token). */
function recordUse(db: Db, tokenId: string) {
  tokenCache.recordUse(tokenId, (at) => db.update(deviceTokens).set({ lastUsedAt: at }).where(eq(deviceTokens.id, tokenId)));
}
