// Geofence evaluation, the pure part: containment per shape and the state machine of one trackable against its
// geofences, with the GPS-noise rules of the contract (exit buffer, debounce, dwell, max accuracy). No I/O: the caller
// finds candidate geofences (candidates.ts), loads and persists the state (memberships, pending crossings) and records
// and sends the events.

import { containsPoint, metresToBoundary, type PolygonGeometry } from "./shapes";
import type { LatLon } from "./haversine";

export { EARTH_RADIUS_M, haversineMeters, type LatLon } from "./haversine";

export interface FenceShape extends LatLon {
  id: string;
  /** Metres: a circle's radius, or a polygon's bounding radius. */
  radius: number;
  /** A polygon's rings; null or absent for a circle. */
  geometry?: PolygonGeometry | null;
  /** Metres beyond the boundary a trackable inside must be before it exits (default 0). */
  exitBuffer?: number;
  /** Seconds a trackable must stay on the new side before a crossing counts (default 0). */
  debounceSeconds?: number;
  /** Seconds inside after which geofence.dwell is emitted, once per visit; 0 or absent = off. */
  dwellSeconds?: number;
  /** Points whose accuracy is worse (larger) than this neither enter nor leave; null or absent = no limit. */
  maxAccuracy?: number | null;
}

/** What an event needs of a point: where, when and how sure. */
export interface Fix extends LatLon {
  id: string;
  timestamp: Date;
  /** Metres; null or absent when unknown. */
  accuracy?: number | null;
}

export type EvalPoint = Fix;

/** The newest point already evaluated for a trackable: points are ordered by (timestamp, id). */
export interface Cursor {
  timestamp: Date;
  id: string;
}

/** What the noise rules remember per (trackable, geofence) beyond inside/outside, kept across batches. */
export interface FenceMemory {
  /** When the current visit began (its entry's occurred_at); null while outside or when unknown. */
  enteredAt: Date | null;
  /** geofence.dwell was emitted for the current visit. */
  dwelt: boolean;
  /** A crossing waiting out the debounce: the first point on the other side of the current state. */
  pending: Fix | null;
}

export const NO_MEMORY: FenceMemory = { enteredAt: null, dwelt: false, pending: null };

export interface Transition<P extends EvalPoint = EvalPoint> {
  kind: "entry" | "exit" | "dwell";
  geofenceId: string;
  /** The point that emitted it (for a crossing without debounce, the one that crossed). */
  point: P;
  /** A debounced crossing: the first point on the new side, whose time and place the event carries. */
  at?: Fix;
  /** An exit: when the visit began, when known. */
  since?: Date;
  /** A dwell: whole seconds inside at `point`. */
  dwellSeconds?: number;
}

export interface EvaluationInput<P extends EvalPoint> {
  /** Newest point already evaluated for this trackable; null when none was. */
  cursor: Cursor | null;
  /** Geofence ids the trackable is inside now. */
  inside: ReadonlySet<string>;
  /** The noise rules' memory of geofences (inside ones, and outside ones with a pending entry); absent = NO_MEMORY. */
  memory?: ReadonlyMap<string, FenceMemory>;
  /** New points, in any order. */
  points: readonly P[];
  /** Geofences that apply to the trackable and may contain the point (`index`: its position in `points`): a superset of those that do. */
  candidates: (point: P, index: number) => Iterable<FenceShape>;
  /** Shapes of every geofence in `inside` or `memory` that still applies; an id missing here is dropped without an event. */
  shapes: ReadonlyMap<string, FenceShape>;
}

export interface EvaluationResult<P extends EvalPoint> {
  /** Points after the cursor, in (timestamp, id) order: these were evaluated. */
  fresh: P[];
  /** Points at or before the cursor (or a duplicate of an earlier one), in (timestamp, id) order: they changed nothing. */
  stale: P[];
  /** In emitting-point order; within one point, exits, then entries, then dwells, each sorted by geofence id. */
  transitions: Transition<P>[];
  /** Geofence ids the trackable is inside after the last fresh point. */
  inside: Set<string>;
  /** The memory after the last fresh point, for every geofence inside or with a pending crossing. */
  memory: Map<string, FenceMemory>;
  /** The last fresh point, or the input cursor when there was none. */
  cursor: Cursor | null;
}

/** Whether the point is inside the fence, by its shape; the boundary counts as inside. */
export function contains(fence: FenceShape, p: LatLon): boolean {
  return containsPoint(fence, p);
}

/**
 * How sure an entry or exit is: "high" when the point's accuracy circle lies wholly on the event's side of the
 * boundary (inside for an entry, outside for an exit), "low" when it straddles it, null when the accuracy is unknown.
 * The point is an entry's or exit's own, so it is on the event's side: its margin is its distance from the boundary
 * (a point on the wrong side, which evaluation never passes, would still read as that distance).
 */
export function confidenceOf(kind: "entry" | "exit", fence: FenceShape, p: LatLon & { accuracy?: number | null }): "high" | "low" | null {
  if (p.accuracy === null || p.accuracy === undefined) return null;
  return metresToBoundary(fence, p) >= p.accuracy ? "high" : "low";
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

const KIND_ORDER = { exit: 0, entry: 1, dwell: 2 } as const;

/** A point's transitions: exits, then entries, then dwells, each by geofence id. */
const byKindThenFence = (a: Transition, b: Transition) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || byId(a.geofenceId, b.geofenceId);

/** Metres the point is outside the fence's boundary (0 when inside or on it). */
export function metresOutsideFence(fence: FenceShape, p: LatLon): number {
  return contains(fence, p) ? 0 : metresToBoundary(fence, p);
}

/**
 * Whether the point is on the inside side for a trackable that `wasInside` (`isIn`: whether the fence contains it):
 * an exit needs more than the exit buffer.
 */
function sideOf(fence: FenceShape, p: LatLon, wasInside: boolean, isIn: boolean): boolean {
  if (isIn) return true;
  const buffer = fence.exitBuffer ?? 0;
  return wasInside && buffer > 0 && metresToBoundary(fence, p) <= buffer;
}

/**
 * Runs a trackable's new points through its geofence state, point by point in (timestamp, id) order. For each
 * geofence that applies: a point it may not count (accuracy worse than maxAccuracy) is ignored; a point on the other
 * side of the state (inside for an entry; beyond the exit buffer for an exit) starts a crossing, which is emitted by
 * the first point at least debounceSeconds after the crossing's first point, dated at that first point, unless a
 * point in between was back on the old side (then it is dropped silently); a point inside at least dwellSeconds after
 * the entry emits geofence.dwell, once per visit. Points not after the cursor (or after the newest point already
 * processed in this call) are stale and change nothing.
 */
export function evaluatePoints<P extends EvalPoint>(input: EvaluationInput<P>): EvaluationResult<P> {
  const shapes = new Map(input.shapes);
  // A membership (or pending crossing) whose geofence no longer applies ends here; the caller handles its events.
  const inside = new Set([...input.inside].filter((id) => shapes.has(id)));
  const memory = new Map<string, FenceMemory>();
  for (const [id, m] of input.memory ?? []) if (shapes.has(id) && (inside.has(id) || m.pending)) memory.set(id, m);
  const points = input.points;
  const order = points.map((_, i) => i);
  // They mostly come in order already (a round reads them so): sorted only when they are not.
  if (points.some((p, i) => i > 0 && compareKeys(points[i - 1]!, p) > 0)) order.sort((a, b) => compareKeys(points[a]!, points[b]!));
  const fresh: P[] = [];
  const stale: P[] = [];
  const transitions: Transition<P>[] = [];
  let cursor: Cursor | null = input.cursor;
  // Reused from point to point, so that a point allocates nothing unless its state changes: the fences to look at
  // (the first `checking` of `toCheck`: an array emptied by setting its length would give up its storage and take a
  // new one on the next push, ~150 bytes a point), which point last put each fence there (by id), and the ids the
  // state names (inside, then those with a crossing under way), remade on a change.
  const toCheck: FenceShape[] = [];
  let checking = 0;
  const checkedAt = new Map<string, number>();
  const emitted: Transition<P>[] = [];
  const trackedOf = () => [...inside, ...[...memory.keys()].filter((id) => !inside.has(id))];
  let tracked = trackedOf();
  const check = (fence: FenceShape, i: number) => {
    if (checkedAt.get(fence.id) === i) return;
    checkedAt.set(fence.id, i);
    toCheck[checking++] = fence;
  };

  for (const i of order) {
    const point = points[i]!;
    if (!isAfter(point, cursor)) {
      stale.push(point);
      continue;
    }
    fresh.push(point);
    cursor = point;

    // The geofences to look at: the candidates, those it is inside, and those with a crossing under way.
    checking = 0;
    emitted.length = 0;
    for (const fence of input.candidates(point, i)) {
      // Remember the shape: a later point outside the candidate box must still be able to exit it.
      shapes.set(fence.id, fence);
      check(fence, i);
    }
    for (let k = 0; k < tracked.length; k++) check(shapes.get(tracked[k]!)!, i);

    let changed = false;
    for (let k = 0; k < checking; k++) {
      const fence = toCheck[k]!;
      const wasInside = inside.has(fence.id);
      const m = memory.get(fence.id) ?? NO_MEMORY;
      const isIn = contains(fence, point);
      if (!wasInside && !m.pending && !isIn) continue; // the common case: a candidate it is not in
      const accuracy = point.accuracy ?? null;
      if (fence.maxAccuracy != null && accuracy !== null && accuracy > fence.maxAccuracy) continue;

      let nowInside = sideOf(fence, point, wasInside, isIn);
      let state = m;
      if (nowInside === wasInside) {
        if (m.pending) state = { ...m, pending: null }; // back on the old side: the crossing is dropped silently
      } else {
        const first = m.pending ?? point;
        if (point.timestamp.getTime() - first.timestamp.getTime() < (fence.debounceSeconds ?? 0) * 1000) {
          state = { ...m, pending: first };
          nowInside = wasInside;
        } else {
          const at = first === point ? {} : { at: first };
          if (nowInside) {
            emitted.push({ kind: "entry", geofenceId: fence.id, point, ...at });
            state = { enteredAt: first.timestamp, dwelt: false, pending: null };
            inside.add(fence.id);
          } else {
            emitted.push({ kind: "exit", geofenceId: fence.id, point, ...at, ...(m.enteredAt && { since: m.enteredAt }) });
            state = NO_MEMORY;
            inside.delete(fence.id);
          }
        }
      }
      const dwell = fence.dwellSeconds ?? 0;
      if (nowInside && dwell > 0 && !state.dwelt && state.enteredAt) {
        const seconds = (point.timestamp.getTime() - state.enteredAt.getTime()) / 1000;
        if (seconds >= dwell) {
          emitted.push({ kind: "dwell", geofenceId: fence.id, point, dwellSeconds: Math.floor(seconds) });
          state = { ...state, dwelt: true };
        }
      }
      if (inside.has(fence.id) || state.pending) memory.set(fence.id, state);
      else memory.delete(fence.id);
      if (state !== m) changed = true;
    }
    if (changed) tracked = trackedOf();
    if (emitted.length > 1) emitted.sort(byKindThenFence);
    for (const tr of emitted) transitions.push(tr);
  }

  const last = fresh[fresh.length - 1];
  return { fresh, stale, transitions, inside, memory, cursor: last ? { timestamp: last.timestamp, id: last.id } : input.cursor };
}
