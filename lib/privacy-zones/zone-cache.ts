import { eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { accounts, privacyZones } from "@/lib/db/schema";
import { haversineMeters, type LatLon } from "@/lib/geofences/haversine";

// An account's privacy zones held in this process's memory for ingestion, keyed by the account's privacy_version:
// every change to a zone bumps that counter in the same transaction (bumpPrivacyVersion), and the statement that
// stores a post's points stores nothing unless the account's version is still the one the zones were applied at
// (lib/locations/locations.ts), so an edit on any server holds on every server's next post, with no query per post.

export interface PrivacyZone extends LatLon {
  id: string;
  radius: number;
  mode: "drop" | "blur";
  /** The trackables it applies to; null: all of the account's. */
  trackableIds: ReadonlySet<string> | null;
  /** Half the height and width in degrees of a box holding the circle (boxOf), made once when the zones are loaded. */
  box?: ZoneBox;
}

interface ZoneBox {
  dLat: number;
  dLon: number;
}

// Metres per degree of latitude, rounded down (111,195 m on the mean sphere), so a box made with it is never too small.
const METRES_PER_DEGREE = 110_000;

/** A box around the zone, padded by 10 % and 10 m: a point outside it is outside the zone, with no trigonometry. */
function boxOf(zone: LatLon & { radius: number }): ZoneBox {
  const dLat = (zone.radius * 1.1 + 10) / METRES_PER_DEGREE;
  const widest = Math.min(90, Math.abs(zone.latitude) + dLat);
  const dLon = widest >= 89.9 ? 360 : (dLat / Math.cos((widest * Math.PI) / 180)) * 1.01;
  return { dLat, dLon };
}

/** Whether the point is certainly outside the zone's box (longitudes compared across the antimeridian). */
function outsideBox(zone: PrivacyZone, box: ZoneBox, p: LatLon): boolean {
  if (Math.abs(p.latitude - zone.latitude) > box.dLat) return true;
  const dl = Math.abs(p.longitude - zone.longitude);
  return Math.min(dl, 360 - dl) > box.dLon;
}

export interface AccountZones {
  version: number;
  zones: PrivacyZone[];
}

/** Accounts kept at most; the least recently loaded goes first. */
const MAX_ACCOUNTS = 10_000;

const globalForZones = globalThis as unknown as { __fencelinePrivacyZones?: Map<string, AccountZones> };
const cache = (globalForZones.__fencelinePrivacyZones ??= new Map());

/**
 * The account's zones from memory, or loaded (one query: the version and the zones read in one snapshot) when this
 * process holds none, or holds an older version than `version` (what a store statement answered).
 */
export async function accountZones(db: Executor, accountId: string, version?: number): Promise<AccountZones> {
  const hit = cache.get(accountId);
  if (hit && (version === undefined || hit.version === version)) return hit;
  const rows = await db
    .select({ version: accounts.privacyVersion, zone: privacyZones })
    .from(accounts)
    .leftJoin(privacyZones, eq(privacyZones.accountId, accounts.id))
    .where(eq(accounts.id, accountId));
  const loaded: AccountZones = {
    version: rows[0]?.version ?? 0,
    zones: rows.flatMap(({ zone }) =>
      zone
        ? [
            {
              id: zone.id,
              latitude: zone.latitude,
              longitude: zone.longitude,
              radius: zone.radius,
              mode: zone.mode,
              trackableIds: zone.trackableIds ? new Set(zone.trackableIds) : null,
              box: boxOf(zone),
            },
          ]
        : [],
    ),
  };
  cache.delete(accountId);
  cache.set(accountId, loaded);
  if (cache.size > MAX_ACCOUNTS) cache.delete(cache.keys().next().value!);
  return loaded;
}

/** Whether the point is in the zone: within its radius of its centre, on the sphere geofences are decided on. */
export const inZone = (zone: LatLon & { radius: number }, point: LatLon): boolean => haversineMeters(zone, point) <= zone.radius;

/** The zone that decides what happens to the trackable's point: a `drop` zone holding it first, else a `blur` one, else null. */
export function zoneFor(zones: readonly PrivacyZone[], trackableId: string, point: LatLon): PrivacyZone | null {
  let blur: PrivacyZone | null = null;
  for (const zone of zones) {
    if (zone.trackableIds && !zone.trackableIds.has(trackableId)) continue;
    if (outsideBox(zone, (zone.box ??= boxOf(zone)), point) || !inZone(zone, point)) continue;
    if (zone.mode === "drop") return zone;
    blur ??= zone;
  }
  return blur;
}

/**
 * The points as they may be stored: those in a `drop` zone left out, those in a `blur` zone moved to its centre with
 * the radius as their accuracy. The same array when no zone applies (the common case costs one pass, no copy).
 */
export function applyPrivacyZones<V extends LatLon & { accuracy: number | null }>(zones: readonly PrivacyZone[], trackableId: string, values: V[]): V[] {
  if (zones.length === 0) return values;
  let changed = false;
  const kept: V[] = [];
  for (const v of values) {
    const zone = zoneFor(zones, trackableId, v);
    if (!zone) kept.push(v);
    else {
      changed = true;
      if (zone.mode === "blur") kept.push({ ...v, latitude: zone.latitude, longitude: zone.longitude, accuracy: zone.radius });
    }
  }
  return changed ? kept : values;
}

/** Marks the account's zones as changed: call in the transaction of every insert, update or delete of a zone. */
export async function bumpPrivacyVersion(db: Executor, accountId: string): Promise<void> {
  await db.update(accounts).set({ privacyVersion: sql`${accounts.privacyVersion} + 1` }).where(eq(accounts.id, accountId));
}
