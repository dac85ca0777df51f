import { enqueue, JOIN_QUEUED_RUN, wakeRunner } from "@/lib/jobs/client";
import { evaluateGeofences } from "@/lib/jobs/workflows/evaluate-geofences";
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { accounts, deviceTokens, locations, trackables, type LocationRow } from "@/lib/db/schema";
import { inChunks, rowsPerInsert } from "@/lib/db/chunks";
import { queryRows } from "@/lib/db/rows";
import { jobsProvider } from "@/lib/jobs/config";
import { newId } from "@/lib/db/ids";
import { ApiError, notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { accountZones, applyPrivacyZones } from "@/lib/privacy-zones/zone-cache";
import { metrics } from "@/lib/metrics/registry";
import { requireTrackable } from "@/lib/trackables/trackables";
import type { Location, LocationHistoryQuery, LocationInput, LocationSource } from "./schemas";
import { serializeLocation } from "./serialize";
import { groupCommitters, INSERT_LOCATIONS, type ApiOutcome, type DeviceOutcome, type DevicePostStore, type Held, type PostStore } from "./group-insert";

/** Who posts: an API key of the trackable's account, or a device token of the trackable itself. */
export type IngestSource = { kind: "api" } | { kind: "device"; app: Exclude<LocationSource, "api">; tokenId: string };


/** The rows of posted or imported points: ids made here, in input order (monotonic, so points sharing a timestamp keep their order). */
function toRows(inputs: readonly LocationInput[], trackableId: string, receivedAt: Date, source: LocationSource) {
  return inputs.map((input) => ({
    id: newId(),
    trackableId,
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy ?? null,
    altitude: input.altitude ?? null,
    speed: input.speed ?? null,
    heading: input.heading ?? null,
    battery: input.battery ?? null,
    timestamp: input.timestamp ?? receivedAt,
    receivedAt,
    source,
  }));
}
/**
 * Stores a trackable's locations (one, or a batch of up to 1000) with one multi-row INSERT and returns them
 * serialized in input order. The trackable must belong to ctx's account (404 otherwise). A missing timestamp
 * defaults to the time of receipt, which is the same instant for the whole batch. Geofence evaluation is scheduled in
 * the same transaction and follows.
 *
 * From a device (a tracking app posting with a device token) the token must still exist when the points are stored
 * (401 otherwise, so a revocation by any process takes effect at once), and exact resends are dropped: a point whose
 * timestamp, latitude and longitude equal one already stored for the trackable (or earlier in the same request) is
 * not stored again and not returned.
 */
export async function ingestLocations(args: Parameters<typeof storeLocations>[0]): Promise<Location[]> {
  const stored = await storeLocations(args);
  if (stored.length > 0) metrics().pointsStored.inc({ source: args.source?.kind === "device" ? args.source.app : "api" }, stored.length);
  return stored;
}

async function storeLocations({
  ctx,
  trackableId,
  inputs,
  source = { kind: "api" },
}: {
  ctx: Ctx;
  trackableId: string;
  inputs: readonly LocationInput[];
  source?: IngestSource;
}): Promise<Location[]> {
  const receivedAt = new Date();
  // UUIDv7s made here, in input order: monotonic within the batch, so points sharing a timestamp keep their order.
  const values = toRows(inputs, trackableId, receivedAt, source.kind === "api" ? "api" : source.app);

  // The common case, with the embedded runner: one statement instead of a transaction of four or five. The privacy
  // zones come from memory; the statement stores only when they are still current (else: reload, apply, again).
  if (jobsProvider() === "embedded" && values.length > 0) {
    const unique = source.kind === "api" ? values : withoutRepeats(values);
    let zones = await accountZones(exec(ctx), ctx.account.id);
    for (;;) {
      const kept = applyPrivacyZones(zones.zones, trackableId, unique);
      const post: PostStore = { ctx, trackableId, values: kept, shared: values[0]!, version: zones.version, job: evaluationJob(trackableId) };
      // Outside a caller's transaction, concurrent posts are stored together (lib/locations/group-insert.ts).
      const outcome = source.kind === "api"
        ? await (ctx.tx ? insertWithJob(post) : groupCommitters(ctx.db, SINGLE_POST).api.submit(post))
        : await (ctx.tx ? insertFromDevice({ ...post, tokenId: source.tokenId }) : groupCommitters(ctx.db, SINGLE_POST).device.submit({ ...post, tokenId: source.tokenId }));
      if (!outcome) {
        if (source.kind === "api") throw notFound("Trackable", trackableId);
        throw new ApiError("unauthorized", "Invalid device token: it is unknown or has been revoked");
      }
      if (outcome.tracking === "paused") return [];
      if (outcome.version !== zones.version) {
        zones = await accountZones(exec(ctx), ctx.account.id, outcome.version);
        continue;
      }
      const stored = outcome.stored ? kept.filter((v) => outcome.stored.has(v.id)) : kept;
      if (stored.length > 0) wakeRunner(evaluateGeofences.name);
      return stored.map(serializeLocation);
    }
  }

  const stored = await withTransaction(ctx, async (txCtx) => {
    let held: { tracking: string; version: number } | undefined;
    if (source.kind === "api") {
      // KEY SHARE on the trackable: a concurrent DELETE waits for this insert instead of failing it on the foreign key.
      [held] = await exec(txCtx)
        .select({ tracking: trackables.tracking, version: accounts.privacyVersion })
        .from(trackables)
        .innerJoin(accounts, eq(accounts.id, trackables.accountId))
        .where(and(eq(trackables.id, trackableId), eq(trackables.accountId, ctx.account.id)))
        .for("key share", { of: trackables });
      if (!held) throw notFound("Trackable", trackableId);
    } else {
      // The token's row and the trackable's, locked together: a revoked token (or a deleted trackable) is refused here,
      // and concurrent device posts for one trackable take turns, so two resends of a point cannot both miss each other.
      [held] = await exec(txCtx)
        .select({ tracking: trackables.tracking, version: accounts.privacyVersion })
        .from(deviceTokens)
        .innerJoin(trackables, eq(trackables.id, deviceTokens.trackableId))
        .innerJoin(accounts, eq(accounts.id, trackables.accountId))
        .where(and(eq(deviceTokens.id, source.tokenId), eq(trackables.id, trackableId), eq(trackables.accountId, ctx.account.id)))
        .for("no key update", { of: [deviceTokens, trackables] });
      if (!held) throw new ApiError("unauthorized", "Invalid device token: it is unknown or has been revoked");
    }
    if (held.tracking === "paused") return [];
    const zones = await accountZones(exec(txCtx), ctx.account.id, held.version);
    let fresh = applyPrivacyZones(zones.zones, trackableId, values);
    if (source.kind !== "api") fresh = await withoutResends(txCtx, trackableId, fresh);
    if (fresh.length === 0) return [];

    const rows = await inChunks(fresh, rowsPerInsert(locations), (chunk) => exec(txCtx).insert(locations).values(chunk).returning());

    // Geofence evaluation is scheduled in the same transaction: the points and the work on them commit together.
    await enqueue(evaluateGeofences, { trackableId }, { executor: txCtx.tx, dedupeKey: `evaluate:${trackableId}` });
    return inInputOrder(rows, fresh);
  });
  if (stored.length > 0) wakeRunner(evaluateGeofences.name);

  return stored.map(serializeLocation);
}

/**
 * Stores the points and queues their trackable's evaluation in ONE statement (atomic on its own, so no transaction):
 * the trackable is checked to be the account's and locked FOR KEY SHARE (a concurrent DELETE waits for this insert
 * instead of failing it on the foreign key; after one that committed, nothing is written), then the locations and
 * the job (joining a queued one for the trackable, which then stays unclaimable until this statement commits) are
 * inserted. The rows are not read back: every column is written from `values`. False when the trackable is not the
 * account's.
 */
async function insertWithJob({ ctx, trackableId, values, shared, version, job }: PostStore): Promise<ApiOutcome> {
  const [result] = await queryRows<Held | { tracking: null; version: null }>(exec(ctx), API_INSERT, [
    ...insertParams(trackableId, ctx.account.id, values, shared, job),
    version,
  ]);
  return result?.tracking == null ? null : { ...result, stored: null };
}

/**
 * A device's points in ONE statement (atomic on its own, so no transaction): the token's row and its trackable's are
 * locked FOR KEY SHARE (a revocation or a trackable's deletion that is under way waits for this insert; after one
 * that committed, nothing is written), the values that are not exact resends are inserted, and the evaluation is
 * queued (joining a queued one) when any was stored. A resend is a point with the same timestamp, latitude and
 * longitude as one stored for the trackable: committed ones are skipped by the probe of the trackable's index for each
 * point, and two posts of the same point at the same moment by the unique index on device points
 * (locations_device_point_idx), where the second waits for the first to commit and then stores nothing. The ids
 * stored, or null when the token no longer holds.
 *
 * The probe is a scalar subquery, not NOT EXISTS: Postgres turns a NOT EXISTS into an anti-join, and where it
 * expected few rows for the trackable (statistics from when the table was smaller, or an unnest's default estimate of
 * ten points) it chose a hash anti-join that read the trackable's WHOLE history on every post (755 rows hashed for one
 * point, 0.95 ms, in the pg-statements bench). A scalar subquery stays a per-point index probe whatever the
 * statistics say.
 */
async function insertFromDevice({ ctx, trackableId, tokenId, values, shared, version, job }: DevicePostStore): Promise<DeviceOutcome> {
  const rows = await queryRows<{ id: string | null; tracking: Held["tracking"] | null; version: number | null }>(exec(ctx), DEVICE_INSERT, [
    ...insertParams(trackableId, ctx.account.id, values, shared, job),
    tokenId,
    version,
  ]);
  const held = rows.find((r) => r.id === null);
  if (!held?.tracking || held.version === null) return null;
  return { tracking: held.tracking, version: held.version, stored: new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id]))) };
}

// The two statements are SQL text with positional parameters, the same text for any number of points (the points
// go in as one array per column, unnested), so they are prepared once per connection and a post builds no query:
// $1 the trackable, $2 its account, $3–$7 the evaluation job (what enqueue() writes for evaluateGeofences), $8–$9 the
// receipt time and source shared by the post's points, $10–$18 the points' columns; for a device $19 the token.
// Timestamps travel as text[] (the driver's timestamptz[] serializer is drizzle's pass-through).
const POINTS = `select p.id, $1::uuid, p.latitude, p.longitude, p.accuracy, p.altitude, p.speed, p.heading, p.battery, p.timestamp,
        $8::timestamptz, $9::text
      from unnest($10::uuid[], $11::float8[], $12::float8[], $13::float8[], $14::float8[], $15::float8[], $16::float8[],
        $17::float8[], $18::text[]::timestamptz[])
        as p(id, latitude, longitude, accuracy, altitude, speed, heading, battery, timestamp)`;
/** A post stored alone: outside a group, and each post of a group whose statement failed. */
const SINGLE_POST = { api: insertWithJob, device: insertFromDevice };
const JOB_INSERT = `insert into jobs (id, name, payload, dedupe_key, concurrency_key)
      select $3::uuid, $4::text, $5::jsonb, $6::text, $7::text`;

// Both store only while the trackable's tracking is "active" and its account's privacy zones are at the version the
// points were filtered with ($19 for the API, $20 for a device), and answer what they found, so a paused trackable's
// post is acknowledged with nothing stored and a zone edited meanwhile sends the post round again.
const API_INSERT = `with owner as (
      select t.tracking, a.privacy_version from trackables t join accounts a on a.id = t.account_id
      where t.id = $1::uuid and t.account_id = $2::uuid
      for key share of t
    ), storing as (
      select 1 from owner where tracking = 'active' and privacy_version = $19::int4 and cardinality($10::uuid[]) > 0
    ), stored as (
      ${INSERT_LOCATIONS}
      ${POINTS}
      where exists (select 1 from storing)
    ), queued as (
      ${JOB_INSERT}
      where exists (select 1 from storing)
      ${JOIN_QUEUED_RUN}
    )
    select tracking, privacy_version as version from owner`;

const DEVICE_INSERT = `with held as (
      select t.tracking, a.privacy_version from device_tokens d join trackables t on t.id = d.trackable_id
      join accounts a on a.id = t.account_id
      where d.id = $19::uuid and t.id = $1::uuid and t.account_id = $2::uuid
      for key share of d, t
    ), stored as (
      ${INSERT_LOCATIONS}
      ${POINTS}
      where exists (select 1 from held where tracking = 'active' and privacy_version = $20::int4) and (
        select true from locations l
        where l.trackable_id = $1::uuid and l.timestamp = p.timestamp and l.latitude = p.latitude and l.longitude = p.longitude
        limit 1) is null
      on conflict (trackable_id, timestamp, latitude, longitude) where source <> 'api' do nothing
      returning id
    ), queued as (
      ${JOB_INSERT}
      where exists (select 1 from stored)
      ${JOIN_QUEUED_RUN}
    )
    select null::text as id, tracking, privacy_version as version from held
    union all
    select id::text, null, null from stored`;

/** The evaluation run a post of the trackable queues, or joins (what enqueue() writes for evaluateGeofences). */
function evaluationJob(trackableId: string): PostStore["job"] {
  return {
    id: newId(),
    name: evaluateGeofences.name,
    // The workflow's payload, checked by type (the id was validated on the way in; a zod parse here ran on every post).
    payload: JSON.stringify({ trackableId } satisfies z.input<typeof evaluateGeofences.payload>),
    dedupeKey: `evaluate:${trackableId}`,
    concurrencyKey: `${evaluateGeofences.name}:${trackableId}`,
  };
}

/** $1–$18 of either statement for one trackable's points (all received together, from one source: `shared`'s). */
function insertParams(
  trackableId: string,
  accountId: string,
  values: LocationRow[],
  shared: Pick<LocationRow, "receivedAt" | "source">,
  job = evaluationJob(trackableId),
): unknown[] {
  const column = (pick: (v: LocationRow) => unknown) => values.map(pick);
  return [
    trackableId,
    accountId,
    job.id,
    job.name,
    job.payload,
    job.dedupeKey,
    job.concurrencyKey,
    shared.receivedAt.toISOString(),
    shared.source,
    column((v) => v.id),
    column((v) => v.latitude),
    column((v) => v.longitude),
    column((v) => v.accuracy),
    column((v) => v.altitude),
    column((v) => v.speed),
    column((v) => v.heading),
    column((v) => v.battery),
    column((v) => v.timestamp.toISOString()),
  ];
}

type PointKey = { timestamp: Date; latitude: number; longitude: number };
const pointKey = (p: PointKey) => `${p.timestamp.getTime()}|${p.latitude}|${p.longitude}`;

/** The values without repeats of an earlier value of the same request (same timestamp, latitude and longitude). */
function withoutRepeats<V extends PointKey>(values: V[]): V[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = pointKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The values that are not exact resends: of the stored points (one index range scan) nor of an earlier value. */
async function withoutResends<V extends PointKey>(ctx: Ctx, trackableId: string, values: V[]): Promise<V[]> {
  const times = [...new Set(values.map((v) => v.timestamp.getTime()))].map((t) => new Date(t));
  const existing = await exec(ctx)
    .select({ timestamp: locations.timestamp, latitude: locations.latitude, longitude: locations.longitude })
    .from(locations)
    .where(and(eq(locations.trackableId, trackableId), inArray(locations.timestamp, times)));
  const seen = new Set(existing.map(pointKey));
  return values.filter((v) => {
    const key = pointKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** RETURNING gives no order guarantee: put the rows back in the order of the values sent. */
function inInputOrder(rows: LocationRow[], values: ReadonlyArray<{ id: string }>): LocationRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return values.map((v) => {
    const row = byId.get(v.id);
    if (!row) throw new Error(`inserted location ${v.id} missing from RETURNING`);
    return row;
  });
}

// The position of the last row of a page, and the order it was made for (a cursor is only valid in that order).
const LocationCursor = z.object({ t: z.iso.datetime({ precision: 3 }), i: z.uuid(), o: z.enum(["desc", "asc"]) });

/** A trackable's locations between the inclusive bounds (either may be left open): history, export and track. */
export function inTimeRange(trackableId: string, range: { from?: Date; to?: Date }): SQL | undefined {
  return and(
    eq(locations.trackableId, trackableId),
    range.from ? gte(locations.timestamp, range.from) : undefined,
    range.to ? lte(locations.timestamp, range.to) : undefined,
  );
}

/**
 * One trackable's history, newest first (or oldest first with order=asc), between the inclusive `from`/`to`.
 * Keyset pagination on (timestamp, id): with trackable_id fixed, every page is one range scan of
 * locations_trackable_ts_idx (forward or backward), whatever the depth of the page.
 */
export async function listLocations({
  ctx,
  trackableId,
  query,
}: {
  ctx: Ctx;
  trackableId: string;
  query: LocationHistoryQuery;
}): Promise<{ data: Location[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor, LocationCursor) : null;
  if (after && after.o !== query.order) {
    throw new ApiError(
      "invalid_request",
      `Invalid cursor: it was made for order=${after.o}, not order=${query.order}; keep the same order while paging`,
    );
  }
  await requireTrackable(ctx, trackableId);

  const key = sql`(${locations.timestamp}, ${locations.id})`;
  const cursorKey = after ? sql`(${after.t}::timestamptz, ${after.i}::uuid)` : null;
  const descending = query.order === "desc";
  const rows = await exec(ctx)
    .select()
    .from(locations)
    .where(
      and(
        inTimeRange(trackableId, query),
        cursorKey ? (descending ? sql`${key} < ${cursorKey}` : sql`${key} > ${cursorKey}`) : undefined,
      ),
    )
    .orderBy(
      ...(descending ? [desc(locations.timestamp), desc(locations.id)] : [asc(locations.timestamp), asc(locations.id)]),
    )
    .limit(query.limit + 1);

  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ t: r.timestamp.toISOString(), i: r.id, o: query.order }));
  return { data: page.map(serializeLocation), nextCursor };
}

/** The trackable's location with the greatest (timestamp, id); 404 when it has none yet. */
export async function getLatestLocation({ ctx, trackableId }: { ctx: Ctx; trackableId: string }): Promise<Location> {
  await requireTrackable(ctx, trackableId);
  const [row] = await exec(ctx)
    .select()
    .from(locations)
    .where(eq(locations.trackableId, trackableId))
    .orderBy(desc(locations.timestamp), desc(locations.id))
    .limit(1);
  if (!row) throw new ApiError("not_found", `Trackable ${trackableId} has no locations yet`);
  return serializeLocation(row);
}

/**
 * Stores a batch of a trackable's history read from a file (at most MAX_BATCH fixes; source "import") in ONE
 * statement: the trackable is checked to be the account's and locked FOR KEY SHARE as for API posts, and resends are
 * dropped as for devices: a fix with the timestamp, latitude and longitude of one stored for the trackable (or earlier
 * in the batch) is not stored again. The geofence evaluation is queued only when `evaluate`: imported history
 * otherwise raises no events and calls no webhooks. How many were stored; 404 when the trackable is not the account's.
 */
export async function importLocations({
  ctx,
  trackableId,
  fixes,
  evaluate,
}: {
  ctx: Ctx;
  trackableId: string;
  fixes: readonly (LocationInput & { timestamp: Date })[];
  evaluate: boolean;
}): Promise<number> {
  if (fixes.length === 0) return 0;
  const receivedAt = new Date();
  const values = withoutRepeats(toRows(fixes, trackableId, receivedAt, "import"));
  // Privacy zones hold for imported history as for live posts: dropped fixes are not stored, blurred ones at the centre.
  // The zones as the database has them now (a zone made on another server counts at once): imports are not on the
  // hot path, so one primary-key read per batch replaces the live posts' in-statement version check.
  const [current] = await exec(ctx).select({ version: accounts.privacyVersion }).from(accounts).where(eq(accounts.id, ctx.account.id));
  const zones = await accountZones(exec(ctx), ctx.account.id, current?.version);
  const kept = applyPrivacyZones(zones.zones, trackableId, values);
  if (kept.length === 0) return 0;
  const [result] = await queryRows<{ owned: number; stored: number }>(exec(ctx), IMPORT_INSERT, [
    ...insertParams(trackableId, ctx.account.id, kept, { receivedAt, source: "import" }),
    evaluate,
  ]);
  if (!result || result.owned === 0) throw notFound("Trackable", trackableId);
  if (evaluate && result.stored > 0) wakeRunner(evaluateGeofences.name);
  return result.stored;
}

// $19: whether the stored points are evaluated. Resends are skipped as in DEVICE_INSERT (the probe, and the unique
// index on points not posted with an API key for two imports of the same file at once).
const IMPORT_INSERT = `with owner as (
      select id from trackables where id = $1::uuid and account_id = $2::uuid
      for key share
    ), stored as (
      ${INSERT_LOCATIONS}
      ${POINTS}
      where exists (select 1 from owner) and (
        select true from locations l
        where l.trackable_id = $1::uuid and l.timestamp = p.timestamp and l.latitude = p.latitude and l.longitude = p.longitude
        limit 1) is null
      on conflict (trackable_id, timestamp, latitude, longitude) where source <> 'api' do nothing
      returning id
    ), queued as (
      ${JOB_INSERT}
      where $19::boolean and exists (select 1 from stored)
      ${JOIN_QUEUED_RUN}
    )
    select (select count(*) from owner)::int4 as owned, (select count(*) from stored)::int4 as stored`;
