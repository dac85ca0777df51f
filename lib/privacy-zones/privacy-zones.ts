import { invalidBody, unknownTrackables } from "@/lib/trackables/owned";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { audit } from "@/lib/audit/audit";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { privacyZones, type PrivacyZoneRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import type { CreatePrivacyZoneInput, PrivacyZone, UpdatePrivacyZoneInput } from "./schemas";
import { bumpPrivacyVersion } from "./zone-cache";

export function serializePrivacyZone(row: PrivacyZoneRow): PrivacyZone {
  return {
    id: row.id,
    name: row.name,
    latitude: row.latitude,
    longitude: row.longitude,
    radius: row.radius,
    trackableIds: row.trackableIds ? [...row.trackableIds].sort() : null,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const scoped = (ctx: Ctx, id: string) => and(eq(privacyZones.id, id), eq(privacyZones.accountId, ctx.account.id));

/** 400 naming every listed id that is not one of the account's trackables; the ids without repeats. */
async function requireOwnTrackables(ctx: Ctx, ids: readonly string[] | null | undefined): Promise<string[] | null | undefined> {
  if (!ids) return ids;
  if (ids.length === 0) throw new ApiError("invalid_request", "Invalid body: trackableIds: must list at least one trackable, or be null for all");
  const problems = await unknownTrackables(ctx, [...ids]);
  if (problems.length > 0) throw invalidBody(problems);
  return [...new Set(ids)];
}

export async function createPrivacyZone({ ctx, input }: { ctx: Ctx; input: CreatePrivacyZoneInput }): Promise<PrivacyZone> {
  return withTransaction(ctx, async (tx) => {
    const trackableIds = await requireOwnTrackables(tx, input.trackableIds);
    const [row] = await exec(tx)
      .insert(privacyZones)
      .values({ ...input, trackableIds: trackableIds ?? null, accountId: ctx.account.id })
      .returning();
    await bumpPrivacyVersion(exec(tx), ctx.account.id);
    await audit(tx, { action: "privacyZone.created", objectType: "privacyZone", objectId: row!.id, after: serializePrivacyZone(row!) });
    return serializePrivacyZone(row!);
  });
}

const ZoneCursor = z.object({ id: z.uuid() });

export async function listPrivacyZones({ ctx, query }: { ctx: Ctx; query: { limit: number; cursor?: string } }) {
  const after = query.cursor ? decodeCursor(query.cursor, ZoneCursor) : null;
  const rows = await exec(ctx)
    .select()
    .from(privacyZones)
    .where(and(eq(privacyZones.accountId, ctx.account.id), after ? lt(privacyZones.id, after.id) : undefined))
    .orderBy(desc(privacyZones.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ id: r.id }));
  return { data: page.map(serializePrivacyZone), nextCursor };
}

/** At most this many zones are drawn on a map (an account has a handful; the page lists them all). */
const MAP_ZONES = 500;

/**
 * The zones a map shows as context: the account's, or with `trackableId` those that apply to that trackable (listed
 * for it, or for all). Only what drawing needs.
 */
export async function listMapZones({ ctx, trackableId }: { ctx: Ctx; trackableId?: string }) {
  const rows = await exec(ctx)
    .select({
      id: privacyZones.id,
      name: privacyZones.name,
      latitude: privacyZones.latitude,
      longitude: privacyZones.longitude,
      radius: privacyZones.radius,
      mode: privacyZones.mode,
    })
    .from(privacyZones)
    .where(
      and(
        eq(privacyZones.accountId, ctx.account.id),
        trackableId ? sql`(${privacyZones.trackableIds} is null or ${trackableId}::uuid = any(${privacyZones.trackableIds}))` : undefined,
      ),
    )
    .orderBy(desc(privacyZones.id))
    .limit(MAP_ZONES);
  return rows;
}

export async function getPrivacyZone({ ctx, id }: { ctx: Ctx; id: string }): Promise<PrivacyZone> {
  const [row] = await exec(ctx).select().from(privacyZones).where(scoped(ctx, id)).limit(1);
  if (!row) throw notFound("Privacy zone", id);
  return serializePrivacyZone(row);
}

export async function updatePrivacyZone({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdatePrivacyZoneInput }): Promise<PrivacyZone> {
  return withTransaction(ctx, async (tx) => {
    const trackableIds = await requireOwnTrackables(tx, input.trackableIds);
    const before = await getPrivacyZone({ ctx: tx, id });
    const [row] = await exec(tx)
      .update(privacyZones)
      .set({ ...input, ...(input.trackableIds === undefined ? {} : { trackableIds: trackableIds ?? null }), updatedAt: new Date() })
      .where(scoped(ctx, id))
      .returning();
    if (!row) throw notFound("Privacy zone", id);
    await bumpPrivacyVersion(exec(tx), ctx.account.id);
    await audit(tx, { action: "privacyZone.updated", objectType: "privacyZone", objectId: id, before, after: serializePrivacyZone(row) });
    return serializePrivacyZone(row);
  });
}

export async function deletePrivacyZone({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const rows = await exec(tx).delete(privacyZones).where(scoped(ctx, id)).returning();
    if (rows.length === 0) throw notFound("Privacy zone", id);
    await audit(tx, { action: "privacyZone.deleted", objectType: "privacyZone", objectId: id, before: serializePrivacyZone(rows[0]!) });
    await bumpPrivacyVersion(exec(tx), ctx.account.id);
  });
}
