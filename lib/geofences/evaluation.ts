// Geofence evaluation, the pure part: great-circle containment and the entry/exit state machine of one trackable.
// No I/O: the caller finds candidate geofences (candidates.ts), persists memberships and sends the events.

import { containsPoint, metresInside, metresOutside, type PolygonGeometry } from "./shapes";
import type { LatLon } from "./haversine";

export { EARTH_RADIUS_M, haversineMeters, type LatLon } from "./haversine";

export interface FenceShape extends LatLon {
  id: string;
  /** Metres: a circle's radius, or a polygon's bounding radius. */
  radius: number;
  /** A polygon's rings; null or absent for a circle. */
  geometry?: PolygonGeometry | null;
}

export interface EvalPoint extends LatLon {
  id: string;
  timestamp: Date;
}

/** The newest point already evaluated for a trackable: points are ordered by (timestamp, id). */
export interface Cursor {
  timestamp: Date;
  id: string;
}

export interface Transition<P extends EvalPoint = EvalPoint> {
  kind: "entry" | "exit";
  geofenceId: string;
  /** The point that crossed the boundary. */
  point: P;
}

export interface EvaluationInput<P extends EvalPoint> {
  /** Newest point already evaluated for this trackable; null when none was. */
  cursor: Cursor | null;
  /** Geofence ids the trackable is inside now. */
  inside: ReadonlySet<string>;
  /** New points, in any order. */
  points: readonly P[];
  /** Geofences that apply to the trackable and may contain the point: a superset of those that do. */
  candidates: (point: P) => Iterable<FenceShape>;
  /** Shapes of every geofence in `inside` that still applies; an id missing here is dropped without an exit. */
  shapes: ReadonlyMap<string, FenceShape>;
}

export interface EvaluationResult<P extends EvalPoint> {
  /** Points after the cursor, in (timestamp, id) order: these were evaluated. */
  fresh: P[];
  /** Points at or before the cursor (or a duplicate of an earlier one), in (timestamp, id) order: they changed nothing. */
  stale: P[];
  /** In point order; within one point, exits before entries, each sorted by geofence id. */
  transitions: Transition<P>[];
  /** Geofence ids the trackable is inside after the last fresh point. */
  inside: Set<string>;
  /** The last fresh point, or the input cursor when there was none. */
  cursor: Cursor | null;
}

/** Whether the point is inside the fence, by its shape; the boundary counts as inside. */
export function contains(fence: FenceShape, p: LatLon): boolean {
  return containsPoint({ ...fence, geometry: fence.geometry ?? null }, p);
}

/**
 * How sure an entry or exit is: "high" when the point's accuracy circle lies wholly on the event's side of the
 * boundary (inside for an entry, outside for an exit), "low" when it straddles it, null when the accuracy is unknown.
 */
export function confidenceOf(kind: "entry" | "exit", fence: FenceShape, p: LatLon & { accuracy: number | null }): "high" | "low" | null {
  if (p.accuracy === null) return null;
  const shape = { ...fence, geometry: fence.geometry ?? null };
  const margin = kind === "entry" ? metresInside(shape, p) : metresOutside(shape, p);
  return margin >= p.accuracy ? "high" : "low";
}

/** Orders points by timestamp, then id (UUIDv7 ids compare correctly as lowercase strings). */
export function compareKeys(a: Cursor, b: Cursor): number {
  const dt = a.timestamp.getTime() - b.timestamp.getTime();
  if (dt !== 0) return dt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Whether (timestamp, id) of the point is strictly after the cursor; everything is after a null cursor. */
export function isAfter(p: Cursor, cursor: Cursor | null): boolean {
  return cursor === null || compareKeys(p, cursor) > 0;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Runs a trackable's new points through its geofence state, point by point in (timestamp, id) order: a point inside
 * a geofence it was outside of emits an entry, the reverse an exit. Points not after the cursor (or after the newest
 * point already processed in this call) are stale and change nothing.
 */
export function evaluatePoints<P extends EvalPoint>(input: EvaluationInput<P>): EvaluationResult<P> {
  const shapes = new Map(input.shapes);
  // A membership whose geofence no longer applies (deleted, unassigned) ends silently.
  const inside = new Set([...input.inside].filter((id) => shapes.has(id)));
  const sorted = [...input.points].sort(compareKeys);
  const fresh: P[] = [];
  const stale: P[] = [];
  const transitions: Transition<P>[] = [];
  let cursor = input.cursor;

  for (const point of sorted) {
    if (!isAfter(point, cursor)) {
      stale.push(point);
      continue;
    }
    fresh.push(point);
    cursor = { timestamp: point.timestamp, id: point.id };

    const now = new Set<string>();
    for (const fence of input.candidates(point)) {
      // Remember the shape: a later point outside the candidate box must still be able to exit it.
      shapes.set(fence.id, fence);
      if (contains(fence, point)) now.add(fence.id);
    }
    for (const id of inside) {
      if (!now.has(id) && contains(shapes.get(id)!, point)) now.add(id);
    }

    const exits = [...inside].filter((id) => !now.has(id)).sort(byId);
    const entries = [...now].filter((id) => !inside.has(id)).sort(byId);
    for (const geofenceId of exits) {
      transitions.push({ kind: "exit", geofenceId, point });
      inside.delete(geofenceId);
    }
    for (const geofenceId of entries) {
      transitions.push({ kind: "entry", geofenceId, point });
      inside.add(geofenceId);
    }
  }

  return { fresh, stale, transitions, inside, cursor };
}
