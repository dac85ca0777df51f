import { and, eq, exists, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { executeRows } from "@/lib/db/rows";
import { geofences, geofenceTrackables, type GeofenceRow } from "@/lib/db/schema";
import type { LatLon } from "./evaluation";

/** What evaluation needs of a geofence: its shape, and what its entry/exit events carry and where they go. */
export type FenceCandidate = Pick<
  GeofenceRow,
  | "id"
  | "name"
  | "latitude"
  | "longitude"
  | "radius"
  | "geometry"
  | "exitBuffer"
  | "debounceSeconds"
  | "dwellSeconds"
  | "maxAccuracy"
  | "notificationType"
  | "webhookUrl"
  | "webhookSecret"
>;

/** The columns a candidate fence is read with (here and by the fence cache, lib/geofences/fence-cache.ts). */
export const fenceColumns = {
  id: geofences.id,
  name: geofences.name,
  latitude: geofences.latitude,
  longitude: geofences.longitude,
  radius: geofences.radius,
  geometry: geofences.geometry,
  exitBuffer: geofences.exitBuffer,
  debounceSeconds: geofences.debounceSeconds,
  dwellSeconds: geofences.dwellSeconds,
  maxAccuracy: geofences.maxAccuracy,
  notificationType: geofences.notificationType,
  webhookUrl: geofences.webhookUrl,
  webhookSecret: geofences.webhookSecret,
};

/** The geofence applies to the trackable: to all of the account's trackables, or assigned to this one. */
const appliesTo = (db: Executor, trackableId: string) =>
  or(
    eq(geofences.allTrackables, true),
    exists(
      db
        .select({ one: sql`1` })
        .from(geofenceTrackables)
        .where(and(eq(geofenceTrackables.geofenceId, geofences.id), eq(geofenceTrackables.trackableId, trackableId))),
    ),
  );

/** A Postgres array literal of finite numbers, sent as one text parameter (drizzle would expand a JS array into a list). */
function float8Array(values: readonly number[]): string {
  for (const v of values) if (!Number.isFinite(v)) throw new RangeError(`findCandidates: coordinate ${v} is not a finite number`);
  return `{${values.join(",")}}`;
}

// Row as the drivers return it: uuid/text as strings, double precision and int4 as numbers (never bigint: the
// ordinality is cast). `notificationType` is the text column drizzle also types as its enum. A polygon's rings are
// not in it: they are fetched once per geofence, not once per (point, geofence) pair.
type CandidateRow = Omit<FenceCandidate, "geometry"> & { index: number; polygon: boolean };

/**
 * The one query behind findCandidates, exported so its plan can be checked. The join condition repeats the GiST index
 * expression of geofences_earth_box_idx (lib/db/schema/geofences.ts) exactly, or the planner could not use the index.
 */
export function candidatesQuery(input: { accountId: string; trackableId: string; points: readonly LatLon[] }): SQL {
  const lats = float8Array(input.points.map((p) => p.latitude));
  const lons = float8Array(input.points.map((p) => p.longitude));
  return sql`
    select (p.idx - 1)::int4 as "index", ${geofences.id} as "id", ${geofences.name} as "name",
           ${geofences.latitude} as "latitude", ${geofences.longitude} as "longitude", ${geofences.radius} as "radius",
           ${geofences.shape} = 'polygon' as "polygon", ${geofences.exitBuffer} as "exitBuffer",
           ${geofences.debounceSeconds} as "debounceSeconds", ${geofences.dwellSeconds} as "dwellSeconds",
           ${geofences.maxAccuracy} as "maxAccuracy",
           ${geofences.notificationType} as "notificationType", ${geofences.webhookUrl} as "webhookUrl",
           ${geofences.webhookSecret} as "webhookSecret"
    from unnest(${lats}::float8[], ${lons}::float8[]) with ordinality as p(lat, lon, idx)
    join ${geofences}
      on earth_box(ll_to_earth(${geofences.latitude}, ${geofences.longitude}), ${geofences.radius} * 1.01) @> ll_to_earth(p.lat, p.lon)
    where ${geofences.accountId} = ${input.accountId}
      and (${geofences.allTrackables} or exists (
        select 1 from ${geofenceTrackables}
        where ${geofenceTrackables.geofenceId} = ${geofences.id} and ${geofenceTrackables.trackableId} = ${input.trackableId}))
    order by p.idx, ${geofences.id}`;
}

/**
 * For each point (by index), the account's geofences that apply to the trackable and whose padded bounding cube holds
 * the point: a superset of those that contain it (decide with `contains`, which tests a polygon exactly). One query for all the points.
 */
export async function findCandidates(
  db: Executor,
  input: { accountId: string; trackableId: string; points: readonly LatLon[] },
): Promise<FenceCandidate[][]> {
  const result: FenceCandidate[][] = input.points.map(() => []);
  if (input.points.length === 0) return result;
  const rows = await executeRows<CandidateRow>(db, candidatesQuery(input));
  const polygonIds = [...new Set(rows.filter((r) => r.polygon).map((r) => r.id))];
  const rings = new Map<string, FenceCandidate["geometry"]>();
  if (polygonIds.length > 0) {
    for (const r of await db.select({ id: geofences.id, geometry: geofences.geometry }).from(geofences).where(inArray(geofences.id, polygonIds))) {
      rings.set(r.id, r.geometry);
    }
  }
  // One object per geofence, shared by every point it is a candidate of.
  const fences = new Map<string, FenceCandidate>();
  for (const row of rows) {
    let fence = fences.get(row.id);
    if (!fence) {
      fence = {
        id: row.id,
        name: row.name,
        latitude: row.latitude,
        longitude: row.longitude,
        radius: row.radius,
        geometry: rings.get(row.id) ?? null,
        exitBuffer: row.exitBuffer,
        debounceSeconds: row.debounceSeconds,
        dwellSeconds: row.dwellSeconds,
        maxAccuracy: row.maxAccuracy,
        notificationType: row.notificationType,
        webhookUrl: row.webhookUrl,
        webhookSecret: row.webhookSecret,
      };
      fences.set(row.id, fence);
    }
    result[row.index]!.push(fence);
  }
  return result;
}

/** The geofences among these ids that still apply to the trackable (deleted or unassigned ones are left out), by id. */
export async function loadShapes(
  db: Executor,
  input: { accountId: string; trackableId: string; geofenceIds: readonly string[] },
): Promise<Map<string, FenceCandidate>> {
  if (input.geofenceIds.length === 0) return new Map();
  const rows = await db
    .select(fenceColumns)
    .from(geofences)
    .where(and(eq(geofences.accountId, input.accountId), inArray(geofences.id, [...input.geofenceIds]), appliesTo(db, input.trackableId)))
    .orderBy(geofences.id);
  return new Map(rows.map((r) => [r.id, r]));
}
