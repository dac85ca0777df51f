import { eq, sql } from "drizzle-orm";
import Flatbush from "flatbush";
import type { Executor } from "@/lib/db/client";
import { accounts, geofences, geofenceTrackables } from "@/lib/db/schema";
import { fenceColumns, type FenceCandidate } from "./candidates";
import type { LatLon } from "./evaluation";

/** A geofence webhook's previous secret and its expiry, kept while a rotation may still overlap. */
export type PreviousSecret = { secret: string; expiresAt: Date } | null;

// An account's geofences held in this process's memory for evaluation, keyed by the account's geofences_version: every
// change to a geofence or to its assignments bumps that counter in the same transaction (bumpGeofencesVersion), and
// evaluation reads it under the trackable's lock before using the cache, so every server sees an edit on its next
// evaluation after the edit commits. Candidates then come from a packed R-tree of the fences' bounding boxes (Flatbush:
// a superset of the fences that may contain the point; `contains` decides exactly) instead of a query per round, so a
// point costs what its candidates cost, however many fences the account has.

export interface AccountFences {
  accountId: string;
  version: number;
  /** In id order; plain FenceCandidate objects (they go into event payloads), shared by every evaluation. */
  fences: FenceCandidate[];
  /** Each fence's index in `fences`, by id. */
  position: Map<string, number>;
  /** Per fence (same index): it applies to all of the account's trackables. */
  all: boolean[];
  /** Every fence applies to all of the account's trackables (none is assigned to some only). */
  forAll: boolean;
  /** Trackable ids assigned to each fence that is not for all trackables. */
  assigned: Map<string, Set<string>>;
  /** The fences' boxes (boxOf) as longitude/latitude rectangles (one crossing the antimeridian is two), null without fences. */
  index: Flatbush | null;
  /** The fence (index into `fences`) of each rectangle of `index`. */
  fenceOf: Int32Array;
  /** Each rectangle of `index`: minLon, minLat, maxLon, maxLat at 4 × its item number. */
  rectangles: Float64Array;
  /**
   * Each fence's webhook's previous secret during a rotation (it bumps the version): its deliveries carry it while
   * the overlap lasts (activePrevious), with no look-up per event. Not in `fences`, which go into payloads.
   */
  previousSecrets: Map<string, PreviousSecret>;
  /** The speed limit (m/s) of each fence that has one (lib/motion): not in `fences`, which go into payloads. */
  speedLimits: Map<string, number>;
}

/** The rectangles of a box (boxOf), [minLon, minLat, maxLon, maxLat] each, split where it crosses the antimeridian. */
function rectanglesOf([minLat, maxLat, centre, half]: Box): Array<[number, number, number, number]> {
  if (half >= 180) return [[-180, minLat, 180, maxLat]];
  const west = centre - half;
  const east = centre + half;
  if (west < -180) return [[west + 360, minLat, 180, maxLat], [-180, minLat, east, maxLat]];
  if (east > 180) return [[west, minLat, 180, maxLat], [-180, minLat, east - 360, maxLat]];
  return [[west, minLat, east, maxLat]];
}

/** A packed R-tree of the fences' boxes (see AccountFences.index). */
function indexOf(fences: readonly FenceCandidate[]): Pick<AccountFences, "index" | "fenceOf" | "rectangles"> {
  if (fences.length === 0) return { index: null, fenceOf: new Int32Array(0), rectangles: new Float64Array(0) };
  const all: Array<[number, [number, number, number, number]]> = [];
  fences.forEach((f, i) => {
    for (const r of rectanglesOf(boxOf(f))) all.push([i, r]);
  });
  const index = new Flatbush(all.length);
  const fenceOf = new Int32Array(all.length);
  const rectangles = new Float64Array(all.length * 4);
  for (const [i, r] of all) {
    const item = index.add(...r);
    fenceOf[item] = i;
    rectangles.set(r, item * 4);
  }
  index.finish();
  return { index, fenceOf, rectangles };
}

/** Geofences kept at most, over all accounts (a few KB each at most); the least recently loaded account goes first. */
const MAX_FENCES = 100_000;
/** Accounts kept at most. */
const MAX_ACCOUNTS = 1_000;

const globalForFences = globalThis as unknown as { __fencelineFenceCache?: Map<string, AccountFences> };
const cache = (globalForFences.__fencelineFenceCache ??= new Map());

// Metres per degree of latitude, rounded down (111,195 m on the mean sphere), so a box made with it is never too small.
const METRES_PER_DEGREE = 110_000;

/**
 * [minLat, maxLat, lonCentre, halfLonSpan] of a box that holds every point a fence may contain (halfLonSpan ≥ 180: any
 * longitude): its circle's (a polygon's bounding circle's), padded by 10 % and 10 m.
 */
type Box = [number, number, number, number];

function boxOf(fence: LatLon & { radius: number }): Box {
  const dLat = (fence.radius * 1.1 + 10) / METRES_PER_DEGREE;
  const minLat = fence.latitude - dLat;
  const maxLat = fence.latitude + dLat;
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const halfLon = widest >= 89.9 ? 360 : Math.min(360, (dLat / Math.cos((widest * Math.PI) / 180)) * 1.01);
  return [minLat, maxLat, fence.longitude, halfLon];
}

/**
 * The account's geofences at `version` (the value of accounts.geofences_version read in the caller's transaction):
 * from memory when this process loaded that version before, otherwise loaded with two queries and kept.
 */
export async function accountFences(db: Executor, accountId: string, version: number): Promise<AccountFences> {
  const hit = cache.get(accountId);
  if (hit && hit.version === version) return hit;
  const rows = await db
    .select({
      ...fenceColumns,
      allTrackables: geofences.allTrackables,
      previousSecret: geofences.previousWebhookSecret,
      previousSecretExpiresAt: geofences.previousWebhookSecretExpiresAt,
      speedLimit: geofences.speedLimit,
    })
    .from(geofences)
    .where(eq(geofences.accountId, accountId))
    .orderBy(geofences.id);
  const all = rows.map((r) => r.allTrackables);
  const fences: FenceCandidate[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    latitude: r.latitude,
    longitude: r.longitude,
    radius: r.radius,
    geometry: r.geometry,
    exitBuffer: r.exitBuffer,
    debounceSeconds: r.debounceSeconds,
    dwellSeconds: r.dwellSeconds,
    maxAccuracy: r.maxAccuracy,
    notificationType: r.notificationType,
    webhookUrl: r.webhookUrl,
    webhookSecret: r.webhookSecret,
  }));
  const assigned = new Map<string, Set<string>>();
  if (all.some((a) => !a)) {
    const links = await db
      .select({ geofenceId: geofenceTrackables.geofenceId, trackableId: geofenceTrackables.trackableId })
      .from(geofenceTrackables)
      .innerJoin(geofences, eq(geofences.id, geofenceTrackables.geofenceId))
      .where(eq(geofences.accountId, accountId));
    for (const r of links) {
      let set = assigned.get(r.geofenceId);
      if (!set) assigned.set(r.geofenceId, (set = new Set()));
      set.add(r.trackableId);
    }
  }
  const previousSecrets = new Map<string, PreviousSecret>();
  for (const r of rows) if (r.previousSecret && r.previousSecretExpiresAt) previousSecrets.set(r.id, { secret: r.previousSecret, expiresAt: r.previousSecretExpiresAt });
  const speedLimits = new Map<string, number>();
  for (const r of rows) if (r.speedLimit !== null) speedLimits.set(r.id, r.speedLimit);
  const position = new Map(fences.map((f, i) => [f.id, i]));
  const loaded: AccountFences = { accountId, version, fences, position, all, forAll: all.every(Boolean), assigned, ...indexOf(fences), previousSecrets, speedLimits };
  cache.delete(accountId);
  cache.set(accountId, loaded);
  let total = 0;
  for (const af of cache.values()) total += af.fences.length;
  for (const [id, af] of cache) {
    if (id === accountId || (cache.size <= MAX_ACCOUNTS && total <= MAX_FENCES)) break;
    cache.delete(id);
    total -= af.fences.length;
  }
  return loaded;
}

/** Whether the geofence applies to the trackable: to all of the account's trackables, or assigned to this one. */
export const appliesTo = (af: AccountFences, i: number, trackableId: string) =>
  af.all[i]! || (af.assigned.get(af.fences[i]!.id)?.has(trackableId) ?? false);

/** Fences a track's box may hold for candidatesFromCache to test each point against them rather than search per point. */
const TRACK_CANDIDATES = 64;

/**
 * For each point (by index), the geofences that apply to the trackable and whose box holds the point, in id order: a
 * superset of those that contain it, like findCandidates (candidates.ts) but from memory. Points in a row with the same
 * candidates share one read-only list. A round's points are mostly a track a few hundred metres long: one search for
 * the box around all of them, then each point against the few rectangles found, instead of a search per point (which
 * a track spread wide still gets).
 */
export function candidatesFromCache(af: AccountFences, trackableId: string, points: readonly LatLon[]): Array<readonly FenceCandidate[]> {
  const { index, fenceOf, fences, rectangles } = af;
  if (!index) return points.map(() => []);
  // No filter when every fence applies to every trackable (the search then makes no call per hit).
  const applies = af.forAll ? undefined : (item: number) => appliesTo(af, fenceOf[item]!, trackableId);
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
  }
  const near = index.search(west, south, east, north, applies);
  const inId = (items: number[]) => items.sort((a, b) => fenceOf[a]! - fenceOf[b]!);
  // Consecutive points of a track mostly have the same candidates: such points share one (read-only) list. `found`
  // holds a point's first `count` candidates (emptying it by its length would give up its storage every point).
  let previous: readonly FenceCandidate[] = [];
  const found: FenceCandidate[] = [];
  const fencesOf = (items: readonly number[], p: LatLon | null): readonly FenceCandidate[] => {
    let count = 0;
    let last = -1;
    for (const item of items) {
      const k = item * 4;
      if (p && (p.longitude < rectangles[k]! || p.latitude < rectangles[k + 1]! || p.longitude > rectangles[k + 2]! || p.latitude > rectangles[k + 3]!)) continue;
      // A fence across the antimeridian has two rectangles, which a point on the line may both hit.
      const i = fenceOf[item]!;
      if (i !== last) found[count++] = fences[i]!;
      last = i;
    }
    if (!samePrefix(found, count, previous)) previous = found.slice(0, count);
    return previous;
  };
  if (near.length <= TRACK_CANDIDATES) {
    inId(near);
    return points.map((p) => fencesOf(near, p));
  }
  return points.map((p) => fencesOf(inId(index.search(p.longitude, p.latitude, p.longitude, p.latitude, applies)), null));
}

/** Whether the first `count` items of `a` are the items of `b`. */
function samePrefix<T>(a: readonly T[], count: number, b: readonly T[]): boolean {
  if (count !== b.length) return false;
  for (let n = 0; n < count; n++) if (a[n] !== b[n]) return false;
  return true;
}

/** The geofences among these ids that still apply to the trackable, by id (loadShapes in candidates.ts, from memory). */
export function shapesFromCache(af: AccountFences, trackableId: string, ids: readonly string[]): Map<string, FenceCandidate> {
  // By position, not by a pass over all of the account's fences: a round costs what the trackable's states name.
  const found: number[] = [];
  for (const id of new Set(ids)) {
    const i = af.position.get(id);
    if (i !== undefined && appliesTo(af, i, trackableId)) found.push(i);
  }
  return new Map(found.sort((a, b) => a - b).map((i) => [af.fences[i]!.id, af.fences[i]!]));
}

/**
 * Marks the account's geofences as changed: call in the transaction of every insert, update or delete of a geofence
 * or of its assignments, so that every process's cache of them is reloaded by its next evaluation.
 */
export async function bumpGeofencesVersion(db: Executor, accountId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ geofencesVersion: sql`${accounts.geofencesVersion} + 1` })
    .where(eq(accounts.id, accountId));
}
