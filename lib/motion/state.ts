// What motion keeps per trackable between rounds (trackable_states.motion_state): where segmentation and the
// speed-episode rule stand, so a round takes in only the fixes after that point.
//
// Stored compactly, since every round that takes in fixes writes it and the next reads it: fixes as
// [time, latitude, longitude, speed] (the state's fixes are only measured from, so neither their id nor their
// accuracy is kept), an open trip's tail as its first point's measures and the positions after it (each later point's
// measures are computed again from the one before, the same sums in the same order, so equal bit for bit), times in
// the tail as steps from the one before. A stored state of another format reads as none: that round recomputes from
// the last stop instead of resuming.
import { extend, type Fix, type OpenSegment, type TrackPoint } from "./segment";
import type { SpeedState } from "./speed";

export interface MotionState {
  /** Epoch ms: every usable fix before this time is taken in; a round whose new fixes are all at or after it resumes. */
  at: number;
  /**
   * The fixes taken in at the time just before `at` (the newest time): the last of them in segmentation's order
   * (compareFixes) and how many there are. A round whose earliest new fix shares that time resumes too when, of the
   * stored fixes at that time, exactly `count` sort at or before the last one: none of the new ones goes before a fix
   * taken in, and the round takes in those after it.
   */
  tie: Tie;
  /** The settings and accuracy limit it was computed with (JSON): under other ones the round recomputes instead. */
  basis: string;
  open: OpenSegment;
  speed: SpeedState;
  /** The stored row of the open trip (null while stopped): with `open` and `speed`, what a resumed round replaces. */
  trip: OpenTrip | null;
}

export interface Tie {
  latitude: number;
  longitude: number;
  id: string;
  count: number;
}

export interface OpenTrip {
  id: string;
  startedSent: boolean;
  endedSent: boolean;
}

const FORMAT = 3;

type StoredFix = [time: number, latitude: number, longitude: number, speed: number | null];
type StoredOpen =
  | [kind: "stop", startedAt: number, latitude: number, longitude: number, anchorAt: number, last: StoredFix]
  | [kind: "trip", first: StoredFix, whole: boolean, distance: number, maxSpeed: number, count: number, tail: (number | null)[]];
/** The stored form of a MotionState (trackable_states.motion_state). */
export interface StoredMotionState {
  v: typeof FORMAT;
  at: number;
  tie: [latitude: number, longitude: number, id: string, count: number];
  basis: string;
  open: StoredOpen;
  speed: [prev: StoredFix | null, startedAt: number | null, fired: boolean];
  trip: [id: string, startedSent: boolean, endedSent: boolean] | null;
}

const storedFix = (f: Fix): StoredFix => [f.time, f.latitude, f.longitude, f.speed];
/** A fix of a stored state: nothing after the state reads a fix's id or accuracy. */
const fixOf = ([time, latitude, longitude, speed]: StoredFix): Fix => ({ id: "", latitude, longitude, time, accuracy: null, speed });

export function encodeMotionState(s: MotionState): StoredMotionState {
  let open: StoredOpen;
  if (s.open.kind === "stop") {
    open = ["stop", s.open.startedAt, s.open.anchor.latitude, s.open.anchor.longitude, s.open.anchorAt, storedFix(s.open.last)];
  } else {
    const [head, ...rest] = s.open.tail;
    const tail: (number | null)[] = [];
    let time = 0;
    for (const p of [head!, ...rest]) {
      tail.push(p.fix.time - time, p.fix.latitude, p.fix.longitude, p.fix.speed);
      time = p.fix.time;
    }
    open = ["trip", storedFix(s.open.first), s.open.whole, head!.distance, head!.maxSpeed, head!.count, tail];
  }
  return {
    v: FORMAT,
    at: s.at,
    tie: [s.tie.latitude, s.tie.longitude, s.tie.id, s.tie.count],
    basis: s.basis,
    open,
    speed: [s.speed.prev === null ? null : storedFix(s.speed.prev), s.speed.startedAt, s.speed.fired],
    trip: s.trip === null ? null : [s.trip.id, s.trip.startedSent, s.trip.endedSent],
  };
}

/** The state a stored one holds; null for none, or for one stored in another format. */
export function decodeMotionState(stored: unknown): MotionState | null {
  const s = stored as StoredMotionState | null;
  if (s === null || typeof s !== "object" || s.v !== FORMAT) return null;
  let open: OpenSegment;
  if (s.open[0] === "stop") {
    const [, startedAt, latitude, longitude, anchorAt, last] = s.open;
    open = { kind: "stop", startedAt, anchor: { latitude, longitude }, anchorAt, last: fixOf(last) };
  } else {
    const [, first, whole, distance, maxSpeed, count, flat] = s.open;
    const tail: TrackPoint[] = [];
    let time = 0;
    for (let i = 0; i < flat.length; i += 4) {
      time += flat[i] as number;
      const fix = fixOf([time, flat[i + 1] as number, flat[i + 2] as number, flat[i + 3] ?? null]);
      tail.push(i === 0 ? { fix, distance, maxSpeed, count } : extend(tail[tail.length - 1]!, fix));
    }
    open = { kind: "trip", first: fixOf(first), tail, whole };
  }
  const [prev, startedAt, fired] = s.speed;
  const trip = s.trip === null ? null : { id: s.trip[0], startedSent: s.trip[1], endedSent: s.trip[2] };
  const [latitude, longitude, id, count] = s.tie;
  return { at: s.at, tie: { latitude, longitude, id, count }, basis: s.basis, open, speed: { prev: prev === null ? null : fixOf(prev), startedAt, fired }, trip };
}
