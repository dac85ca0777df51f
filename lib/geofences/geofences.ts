import { invalidBody, unknownTrackables } from "@/lib/trackables/owned";
import { and, asc, desc, eq, getTableColumns, inArray, lt, or } from "drizzle-orm";
import { z } from "zod";
import { audit } from "@/lib/audit/audit";
import { omit } from "@/lib/audit/changes";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { inChunks, rowsPerInsert } from "@/lib/db/chunks";
import { geofences, geofenceTrackables, trackables, type GeofenceRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { planRequired } from "@/lib/http/handler";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { shapeIssues, type CreateGeofenceInput, type Geofence, type GeofenceListQuery, type NotificationType, type UpdateGeofenceInput } from "./schemas";
import { occupantCounts } from "./occupancy";
import { eventsCommitted, type Recording } from "@/lib/events/record";
import { publishNotice } from "@/lib/stream/bus";
import { exitAllOnDelete, exitUnassigned, reevaluateOnReshape } from "./synthetic";
import { bumpGeofencesVersion } from "./fence-cache";
import { polygonSummary, sameGeometry, type PolygonGeometry } from "./shapes";

/** The API shape: the secret never leaves the server, only whether one is set. */
export function serializeGeofence(row: GeofenceRow, assigned: string[], occupantCount: number): Geofence {
  return {
    id: row.id,
    name: row.name,
    shape: row.shape,
    geometry: row.geometry,
    latitude: row.latitude,
    longitude: row.longitude,
    radius: row.radius,
    notificationType: row.notificationType,
    webhookUrl: row.webhookUrl,
    webhookSecretSet: row.webhookSecret !== null,
    exitBuffer: row.exitBuffer,
    debounceSeconds: row.debounceSeconds,
    dwellSeconds: row.dwellSeconds,
    maxAccuracy: row.maxAccuracy,
    speedLimit: row.speedLimit,
    tag: row.tag,
    externalId: row.externalId,
    metadata: row.metadata,
    trackableIds: row.allTrackables ? null : [...assigned].sort(),
    occupantCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The assigned trackable ids of each given geofence (only those not applying to every trackable). */
async function assignmentsOf(ctx: Ctx, rows: GeofenceRow[]): Promise<Map<string, string[]>> {
  const ids = rows.filter((r) => !r.allTrackables).map((r) => r.id);
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const links = await exec(ctx)
    .select({ geofenceId: geofenceTrackables.geofenceId, trackableId: geofenceTrackables.trackableId })
    .from(geofenceTrackables)
    .where(inArray(geofenceTrackables.geofenceId, ids))
    .orderBy(asc(geofenceTrackables.trackableId));
  for (const l of links) out.get(l.geofenceId)?.push(l.trackableId);
  return out;
}

async function serializeAll(ctx: Ctx, rows: GeofenceRow[]): Promise<Geofence[]> {
  const assigned = await assignmentsOf(ctx, rows);
  const counts = await occupantCounts(ctx, rows.map((r) => r.id));
  return rows.map((r) => serializeGeofence(r, assigned.get(r.id) ?? [], counts.get(r.id) ?? 0));
}

// What a write reads back of the row it wrote: every column but the geometry, which the caller already holds (a
// polygon's 2,000 positions would be encoded once more by the database and parsed again here).
const writtenColumns = omit(getTableColumns(geofences), "geometry");

const ownedBy = (ctx: Ctx, id: string) => and(eq(geofences.id, id), eq(geofences.accountId, ctx.account.id));

/** The stored position columns of a shape: a circle's own, or a polygon's centroid and bounding radius. */
function placement(input: { latitude?: number; longitude?: number; radius?: number; geometry?: PolygonGeometry }) {
  if (input.geometry) return { ...polygonSummary(input.geometry), geometry: input.geometry };
  return { latitude: input.latitude!, longitude: input.longitude!, radius: input.radius!, geometry: null };
}

/** A taken externalId is a 409 naming the geofence that has it. */
async function assertExternalIdFree(ctx: Ctx, externalId: string | null | undefined, self?: string): Promise<void> {
  if (!externalId) return;
  const [taken] = await exec(ctx)
    .select({ id: geofences.id })
    .from(geofences)
    .where(and(eq(geofences.accountId, ctx.account.id), eq(geofences.externalId, externalId)))
    .limit(1);
  if (taken && taken.id !== self) throw duplicateExternalId(externalId, taken.id);
}

const duplicateExternalId = (externalId: string, holder?: string) =>
  new ApiError("conflict", `externalId: "${externalId}" is already used by ${holder ? `geofence ${holder}` : "another geofence"} of this account`);

/** The unique index's verdict when two writes race past assertExternalIdFree. */
function isUniqueViolation(e: unknown): boolean {
  for (let cause = e; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

async function guardExternalId<T>(externalId: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (externalId && isUniqueViolation(e)) throw duplicateExternalId(externalId);
    throw e;
  }
}

/** Free accounts may keep geofences, but not webhook notifications (checked after every 400). */
function assertPlanAllows(ctx: Ctx, notificationType: NotificationType): void {
  if (notificationType === "webhook" && ctx.account.plan !== "enterprise") throw planRequired();
}

async function replaceAssignments(ctx: Ctx, geofenceId: string, trackableIds: string[] | null): Promise<void> {
  await exec(ctx).delete(geofenceTrackables).where(eq(geofenceTrackables.geofenceId, geofenceId));
  await inChunks(trackableIds ?? [], rowsPerInsert(geofenceTrackables), async (chunk) => {
    await exec(ctx)
      .insert(geofenceTrackables)
      .values(chunk.map((trackableId) => ({ geofenceId, trackableId })));
  });
}

/** What the audit log compares of a geofence: its settings as the API shows them, and its webhook secret (redacted). */
const audited = (row: GeofenceRow, assigned: string[]) => ({ ...omit(serializeGeofence(row, assigned, 0), "occupantCount"), webhookSecret: row.webhookSecret });

export async function createGeofence({ ctx, input }: { ctx: Ctx; input: CreateGeofenceInput }): Promise<Geofence> {
  const trackableIds = input.trackableIds ?? null;
  const { row, assigned } = await guardExternalId(input.externalId, () => withTransaction(ctx, async (tx) => {
    const problems = await unknownTrackables(tx, trackableIds ?? []);
    if (problems.length > 0) throw invalidBody(problems);
    assertPlanAllows(tx, input.notificationType);
    await assertExternalIdFree(tx, input.externalId);
    const position = placement(input);
    const [written] = await exec(tx)
      .insert(geofences)
      .values({
        accountId: ctx.account.id,
        name: input.name,
        shape: input.shape,
        ...position,
        exitBuffer: input.exitBuffer,
        debounceSeconds: input.debounceSeconds,
        dwellSeconds: input.dwellSeconds,
        maxAccuracy: input.maxAccuracy,
        speedLimit: input.speedLimit,
        tag: input.tag ?? null,
        externalId: input.externalId ?? null,
        metadata: input.metadata,
        notificationType: input.notificationType,
        webhookUrl: input.webhookUrl ?? null,
        webhookSecret: input.webhookSecret ?? null,
        allTrackables: trackableIds === null,
      })
      .returning(writtenColumns);
    const inserted: GeofenceRow = { ...written!, geometry: position.geometry };
    if (trackableIds) await replaceAssignments(tx, inserted.id, trackableIds);
    await bumpGeofencesVersion(exec(tx), ctx.account.id);
    await audit(tx, { action: "geofence.created", objectType: "geofence", objectId: inserted.id, after: audited(inserted, trackableIds ?? []) });
    return { row: inserted, assigned: trackableIds ?? [] };
  }));
  publishNotice(ctx.account.id, "geofence");
  return serializeGeofence(row, assigned, 0);
}

const GeofenceCursor = z.object({ id: z.uuid() });

/** The geofences that apply to an account's trackable: those assigned to it and those for every trackable. */
async function appliesTo(ctx: Ctx, trackableId: string) {
  const [owned] = await exec(ctx)
    .select({ id: trackables.id })
    .from(trackables)
    .where(and(eq(trackables.id, trackableId), eq(trackables.accountId, ctx.account.id)))
    .limit(1);
  if (!owned) throw new ApiError("invalid_request", "Invalid query: trackableId: no such trackable");
  const assignedTo = exec(ctx)
    .select({ id: geofenceTrackables.geofenceId })
    .from(geofenceTrackables)
    .where(eq(geofenceTrackables.trackableId, trackableId));
  return or(eq(geofences.allTrackables, true), inArray(geofences.id, assignedTo));
}

/** Newest first, optionally only those that apply to `trackableId`. */
export async function listGeofences({ ctx, query }: { ctx: Ctx; query: GeofenceListQuery }) {
  const after = query.cursor ? decodeCursor(query.cursor, GeofenceCursor) : null;
  const filter = query.trackableId ? await appliesTo(ctx, query.trackableId) : undefined;
  const rows = await exec(ctx)
    .select()
    .from(geofences)
    .where(
      and(
        eq(geofences.accountId, ctx.account.id),
        after ? lt(geofences.id, after.id) : undefined,
        filter,
        query.tag ? eq(geofences.tag, query.tag) : undefined,
        query.externalId ? eq(geofences.externalId, query.externalId) : undefined,
      ),
    )
    .orderBy(desc(geofences.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (g) => ({ id: g.id }));
  return { data: await serializeAll(ctx, page), nextCursor };
}

/** How many geofences the dashboard editor loads at once (it draws them all on one map). */
export const MAX_EDITOR_GEOFENCES = 2000;

/** Every geofence of the account, by name then id, without paging (the dashboard's editor and filters); capped. */
export async function listAllGeofences({ ctx }: { ctx: Ctx }): Promise<Geofence[]> {
  const rows = await exec(ctx)
    .select()
    .from(geofences)
    .where(eq(geofences.accountId, ctx.account.id))
    .orderBy(asc(geofences.name), asc(geofences.id))
    .limit(MAX_EDITOR_GEOFENCES);
  return serializeAll(ctx, rows);
}

export async function getGeofence({ ctx, id }: { ctx: Ctx; id: string }): Promise<Geofence> {
  const [row] = await exec(ctx).select().from(geofences).where(ownedBy(ctx, id)).limit(1);
  if (!row) throw notFound("Geofence", id);
  const [geofence] = await serializeAll(ctx, [row]);
  return geofence!;
}

/**
 * Applies a partial update. The result is validated as a whole (a webhook geofence needs a URL), and the row update
 * and the replacement of the assignment happen in one transaction, with the row locked against concurrent patches.
 */
export async function updateGeofence({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateGeofenceInput }): Promise<Geofence> {
  const recordings: Recording[] = [];
  const updated = await guardExternalId(input.externalId, () => withTransaction(ctx, async (tx) => {
    // NO KEY UPDATE, not UPDATE: an evaluation inserting a membership of this geofence (a foreign key: KEY SHARE) must
    // not wait for us while we wait for its trackable's state row (synthetic transitions below lock those).
    const [current] = await exec(tx).select().from(geofences).where(ownedBy(tx, id)).for("no key update");
    if (!current) throw notFound("Geofence", id);

    const notificationType = input.notificationType ?? current.notificationType;
    const webhookUrl = input.webhookUrl === undefined ? current.webhookUrl : input.webhookUrl;
    const problems: string[] = [];
    if (notificationType === "webhook" && webhookUrl === null) {
      problems.push(
        input.webhookUrl === null
          ? 'webhookUrl: cannot be removed while notificationType is "webhook" (set notificationType to "none" as well)'
          : 'webhookUrl: required when notificationType is "webhook"',
      );
    }
    // A change of shape must bring the new shape's fields; a polygon's rings and a circle's fields never mix.
    const shape = input.shape ?? current.shape;
    const reshaped = shape !== current.shape;
    for (const issue of shapeIssues(shape, input, reshaped)) problems.push(`${issue.path.join(".")}: ${issue.message}`);
    if (input.trackableIds) problems.push(...(await unknownTrackables(tx, input.trackableIds)));
    if (problems.length > 0) throw invalidBody(problems);
    assertPlanAllows(tx, notificationType);
    await assertExternalIdFree(tx, input.externalId, id);

    const { trackableIds, latitude, longitude, radius, geometry, ...fields } = input;
    // For the audit log: the assignment as it was, when this patch replaces it.
    const assignedBefore = trackableIds !== undefined && !current.allTrackables ? ((await assignmentsOf(tx, [current])).get(id) ?? []) : null;
    const position =
      shape === "polygon"
        ? geometry && placement({ geometry })
        : reshaped || latitude !== undefined || longitude !== undefined || radius !== undefined
          ? placement({ latitude: latitude ?? current.latitude, longitude: longitude ?? current.longitude, radius: radius ?? current.radius })
          : undefined;
    // The written row comes back from the update itself, but for the geometry, which is the one sent or the current one.
    const [written] = await exec(tx)
      .update(geofences)
      .set({
        ...fields,
        shape,
        ...position,
        ...(trackableIds !== undefined && { allTrackables: trackableIds === null }),
        // A secret set by PATCH replaces the current one at once (rotate-secret is the way with an overlap).
        ...(fields.webhookSecret !== undefined && { previousWebhookSecret: null, previousWebhookSecretExpiresAt: null }),
        updatedAt: new Date(),
      })
      .where(ownedBy(tx, id))
      .returning(writtenColumns);
    const row: GeofenceRow = { ...written!, geometry: position ? position.geometry : current.geometry };
    // Synthetic transitions, at the moment of the change: trackables no longer assigned leave; after a change of
    // shape, position or size, each trackable it applies to is decided again at its last evaluated location.
    if (trackableIds !== undefined) {
      recordings.push(await exitUnassigned(tx.tx, tx.account, row, trackableIds));
      await replaceAssignments(tx, id, trackableIds);
    }
    const moved =
      row.shape !== current.shape ||
      row.latitude !== current.latitude ||
      row.longitude !== current.longitude ||
      row.radius !== current.radius ||
      !sameGeometry(row.geometry, current.geometry);
    if (moved) {
      const assigned = row.allTrackables ? null : new Set((await assignmentsOf(tx, [row])).get(id) ?? []);
      recordings.push(await reevaluateOnReshape(tx.tx, tx.account, row, (trackableId) => assigned === null || assigned.has(trackableId)));
    }
    await bumpGeofencesVersion(exec(tx), ctx.account.id);
    const [geofence] = await serializeAll(tx, [row]);
    await audit(tx, { action: "geofence.updated", objectType: "geofence", objectId: id, before: audited(current, assignedBefore ?? geofence!.trackableIds ?? []), after: audited(row, geofence!.trackableIds ?? []) });
    return geofence!;
  }));
  eventsCommitted(...recordings);
  publishNotice(ctx.account.id, "geofence");
  return updated;
}

/** Deletes the geofence and its assignments; every trackable inside it exits first (reason geofence_deleted). */
export async function deleteGeofence({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  const recording = await withTransaction(ctx, async (tx) => {
    const [row] = await exec(tx).select().from(geofences).where(ownedBy(tx, id));
    if (!row) throw notFound("Geofence", id);
    const sent = await exitAllOnDelete(tx.tx, tx.account, row);
    const rows = await exec(tx).delete(geofences).where(ownedBy(tx, id)).returning({ id: geofences.id });
    if (rows.length === 0) throw notFound("Geofence", id);
    await audit(tx, { action: "geofence.deleted", objectType: "geofence", objectId: id, before: audited(row, []) });
    await bumpGeofencesVersion(exec(tx), ctx.account.id);
    return sent;
  });
  eventsCommitted(recording);
  publishNotice(ctx.account.id, "geofence");
}
