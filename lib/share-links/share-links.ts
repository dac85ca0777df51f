import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import { z } from "zod";
import { env } from "@/lib/config/env";
import { audit } from "@/lib/audit/audit";
import { omit } from "@/lib/audit/changes";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import type { Executor } from "@/lib/db/client";
import { locations, shareLinks, trackables, type ShareLinkRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { iso, isoOrNull } from "@/lib/schemas/common";
import {
  DEFAULT_EXPIRES_IN_S,
  type CreateShareLinkInput,
  type PublicShare,
  type ShareLink,
  type ShareLinkListQuery,
} from "./schemas";

// 32 random bytes: 256 bits, 43 base64url characters. Anything else cannot be a token and needs no look-up.
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** SHA-256 hex of a token: what the table is searched by (a hash look-up leaks nothing about the token by timing). */
export const hashShareToken = (token: string): string => createHash("sha256").update(token).digest("hex");

export function newShareToken(): { token: string; tokenHash: string } {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, tokenHash: hashShareToken(token) };
}

/** The public page of a token, under APP_URL (which may carry a path prefix). */
export const shareUrl = (token: string): string => `${env().APP_URL.replace(/\/+$/, "")}/share/${token}`;

export function serializeShareLink(row: ShareLinkRow): ShareLink {
  return {
    id: row.id,
    trackableId: row.trackableId,
    name: row.name,
    url: shareUrl(row.token),
    expiresAt: iso(row.expiresAt),
    revokedAt: isoOrNull(row.revokedAt),
    createdAt: iso(row.createdAt),
  };
}

/** What the audit log shows of a link: not its URL, which is the token that opens it. */
const auditedRow = (row: ShareLinkRow) => omit(serializeShareLink(row), "url");

const ownedBy = (ctx: Ctx, id: string) => and(eq(shareLinks.id, id), eq(shareLinks.accountId, ctx.account.id));

/**
 * Creates a link to one of the account's trackables (404 otherwise). `now` is the creation time the expiry counts
 * from: a parameter so tests can make a link that is already expired through the real code, without a clock mock.
 */
export async function createShareLink({
  ctx,
  input,
  now = new Date(),
}: {
  ctx: Ctx;
  input: CreateShareLinkInput;
  now?: Date;
}): Promise<ShareLink> {
  const expiresAt = input.expiresAt ?? new Date(now.getTime() + (input.expiresIn ?? DEFAULT_EXPIRES_IN_S) * 1000);
  const row = await withTransaction(ctx, async (tx) => {
    // FOR KEY SHARE (what the foreign key takes): the trackable cannot be deleted before the insert.
    const [trackable] = await exec(tx)
      .select({ id: trackables.id })
      .from(trackables)
      .where(and(eq(trackables.id, input.trackableId), eq(trackables.accountId, ctx.account.id)))
      .for("key share");
    if (!trackable) throw notFound("Trackable", input.trackableId);
    const { token, tokenHash } = newShareToken();
    const [inserted] = await exec(tx)
      .insert(shareLinks)
      .values({
        accountId: ctx.account.id,
        trackableId: trackable.id,
        name: input.name ?? null,
        token,
        tokenHash,
        expiresAt,
        createdAt: now,
      })
      .returning();
    await audit(tx, { action: "shareLink.created", objectType: "shareLink", objectId: inserted!.id, after: auditedRow(inserted!) });
    return inserted!;
  });
  return serializeShareLink(row);
}

const ShareLinkCursor = z.object({ id: z.uuid() });

/** Newest first; optionally one trackable's links (400 when it is not one of the account's), only active ones, or only the others. */
export async function listShareLinks({ ctx, query, now = new Date() }: { ctx: Ctx; query: ShareLinkListQuery; now?: Date }) {
  const after = query.cursor ? decodeCursor(query.cursor, ShareLinkCursor) : null;
  if (query.trackableId) {
    const [owned] = await exec(ctx)
      .select({ id: trackables.id })
      .from(trackables)
      .where(and(eq(trackables.id, query.trackableId), eq(trackables.accountId, ctx.account.id)))
      .limit(1);
    if (!owned) throw new ApiError("invalid_request", "Invalid query: trackableId: no such trackable");
  }
  const activity =
    query.active === undefined
      ? undefined
      : query.active
        ? and(isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now))
        : or(isNotNull(shareLinks.revokedAt), lte(shareLinks.expiresAt, now));
  const rows = await exec(ctx)
    .select()
    .from(shareLinks)
    .where(
      and(
        eq(shareLinks.accountId, ctx.account.id),
        query.trackableId ? eq(shareLinks.trackableId, query.trackableId) : undefined,
        after ? lt(shareLinks.id, after.id) : undefined,
        activity,
      ),
    )
    .orderBy(desc(shareLinks.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  return { data: page.map(serializeShareLink), nextCursor };
}

export async function getShareLink({ ctx, id }: { ctx: Ctx; id: string }): Promise<ShareLink> {
  const [row] = await exec(ctx).select().from(shareLinks).where(ownedBy(ctx, id)).limit(1);
  if (!row) throw notFound("Share link", id);
  return serializeShareLink(row);
}

/**
 * Revokes a link: its page and public endpoint answer 404 from now on. Revoking is a one-way change of state, so a
 * second revoke is a 409 conflict (as Stripe refuses to cancel what is already canceled) rather than a silent 204:
 * the caller learns the link was already revoked, and when. An expired link can still be revoked.
 */
export async function revokeShareLink({ ctx, id, now = new Date() }: { ctx: Ctx; id: string; now?: Date }): Promise<void> {
  // The conditional update makes concurrent revokes safe: exactly one of them changes the row.
  const updated = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx.update(shareLinks).set({ revokedAt: now }).where(and(ownedBy(ctx, id), isNull(shareLinks.revokedAt))).returning();
    if (row) await audit(tx, { action: "shareLink.revoked", objectType: "shareLink", objectId: id, before: { ...auditedRow(row), revokedAt: null }, after: auditedRow(row) });
    return row;
  });
  if (updated) return;
  const [row] = await exec(ctx).select({ revokedAt: shareLinks.revokedAt }).from(shareLinks).where(ownedBy(ctx, id)).limit(1);
  if (!row) throw notFound("Share link", id);
  throw new ApiError("conflict", `Share link ${id} is already revoked (since ${isoOrNull(row.revokedAt)})`);
}

/** The same answer for an unknown, expired or revoked token, so the response tells nothing about which. */
export const invalidShareToken = () => new ApiError("not_found", "This share link does not exist, has expired or has been revoked");

/**
 * What the holder of a token may see: the trackable's name and type, its latest location without ids, and the
 * expiry; null for a token that is unknown, expired or revoked at `now`.
 */
export async function findSharedTrackable({ db, token, now = new Date() }: { db: Executor; token: string; now?: Date }): Promise<PublicShare | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [link] = await db
    .select({ trackableId: shareLinks.trackableId, expiresAt: shareLinks.expiresAt, name: trackables.name, type: trackables.type })
    .from(shareLinks)
    .innerJoin(trackables, eq(trackables.id, shareLinks.trackableId))
    .where(and(eq(shareLinks.tokenHash, hashShareToken(token)), isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now)))
    .limit(1);
  if (!link) return null;
  const [last] = await db
    .select()
    .from(locations)
    .where(eq(locations.trackableId, link.trackableId))
    .orderBy(desc(locations.timestamp), desc(locations.id))
    .limit(1);
  // Field by field on purpose (not serializeLocation minus ids): a public payload lists what it shows, so a field added
  // to Location later is not published through share links by accident.
  return {
    trackable: { name: link.name, type: link.type },
    location: last
      ? {
          latitude: last.latitude,
          longitude: last.longitude,
          accuracy: last.accuracy,
          altitude: last.altitude,
          speed: last.speed,
          heading: last.heading,
          battery: last.battery,
          timestamp: iso(last.timestamp),
          receivedAt: iso(last.receivedAt),
          source: last.source,
        }
      : null,
    expiresAt: iso(link.expiresAt),
  };
}

/** findSharedTrackable for the public endpoint: 404 (invalidShareToken) instead of null. */
export async function viewSharedTrackable(args: { db: Executor; token: string; now?: Date }): Promise<PublicShare> {
  const view = await findSharedTrackable(args);
  if (!view) throw invalidShareToken();
  return view;
}
