// Trips and stops from a trackable's fixes: a pure function of the time-ordered fixes and the motion settings, with no
// I/O, so the same fixes give the same segments however they arrived (one by one, in batches, shuffled, late).
import { haversineMeters } from "@/lib/geofences/haversine";

export interface MotionSettings {
  /** Metres: a fix this far or farther from the stop's position starts a trip; a stop's fixes lie within it. */
  minTripDistance: number;
  /** Seconds the fixes must stay within minTripDistance of the latest one for the trackable to count as stopped. */
  minStopDuration: number;
  /** Seconds without a fix that end a trip at its last fix before the gap. */
  stopGap: number;
  /** m/s, or null for no limit of the trackable's own (a geofence's limit may still apply). */
  speedLimit: number | null;
  /** Seconds above the limit that make one speed.exceeded episode. */
  speedMinDuration: number;
}

export const DEFAULT_MOTION: MotionSettings = { minTripDistance: 200, minStopDuration: 180, stopGap: 3600, speedLimit: null, speedMinDuration: 10 };

/** The accuracy limit when no geofence of the trackable sets maxAccuracy. */
export const DEFAULT_MOTION_ACCURACY = 100;

export interface Fix {
  id: string;
  latitude: number;
  longitude: number;
  /** Epoch milliseconds. */
  time: number;
  accuracy: number | null;
  /** Reported speed, m/s, when the device sends one. */
  speed: number | null;
}

export interface Point {
  latitude: number;
  longitude: number;
}

export interface TripSegment {
  status: "ongoing" | "completed";
  startedAt: number;
  endedAt: number | null;
  start: Point;
  end: Point | null;
  /** Metres: the sum of the great-circle legs between the trip's fixes. */
  distance: number;
  /** Seconds from startedAt to endedAt (to the latest fix while ongoing). */
  duration: number;
  /** m/s: the larger of the reported speeds and the leg speeds. */
  maxSpeed: number;
  pointCount: number;
  /** The first and last fix of the trip's track (inclusive). */
  firstFixTime: number;
  lastFixTime: number;
}

export interface StopSegment {
  startedAt: number;
  /** Null while the trackable is still stopped there. */
  endedAt: number | null;
  latitude: number;
  longitude: number;
  /** Seconds from startedAt to endedAt (to the latest fix while ongoing). */
  duration: number;
  /** Time of the fix that confirmed the stop (its position's fix): segmentation can resume from here. */
  anchorAt: number;
}

/** The state of a stop to resume segmenting from: the window's first fix is its fix at anchorAt. */
export interface StopState {
  startedAt: number;
  latitude: number;
  longitude: number;
}

export interface Segmentation {
  trips: TripSegment[];
  stops: StopSegment[];
}

/** Fixes motion may use: accuracy no worse than the limit (an unknown accuracy counts), sorted by (time, id). */
export function usableFixes(fixes: readonly Fix[], accuracyLimit: number): Fix[] {
  return fixes.filter((f) => f.accuracy === null || f.accuracy <= accuracyLimit).sort(compareFixes);
}

/** By time, then by position (not id: the same fix posted twice gets two ids, and the order must not depend on them). */
export function compareFixes(a: Fix, b: Fix): number {
  return a.time - b.time || a.latitude - b.latitude || a.longitude - b.longitude || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A fix of an open trip's track with the trip's measures up to it: a trip that ends there needs no earlier fix. */
export interface TrackPoint {
  fix: Fix;
  /** Metres from the trip's first fix to this one along the track. */
  distance: number;
  /** m/s: the trip's maxSpeed up to this fix. */
  maxSpeed: number;
  /** Fixes of the track up to this one (the first included). */
  count: number;
}

/**
 * The open segment after some fixes: everything segmentation needs to go on with the next ones and give exactly what
 * segmenting all fixes at once gives. A trip keeps its first fix and the tail of its track that a later stop can
 * still reach (see `Segmenter.state`), each point with the trip's measures up to it: its size depends on where the
 * trackable has been lately, not on the trip's length.
 */
export type OpenSegment =
  | { kind: "stop"; startedAt: number; anchor: Point; anchorAt: number; last: Fix }
  | { kind: "trip"; first: Fix; tail: TrackPoint[]; /** The tail begins at the first fix (nothing was dropped). */ whole: boolean };

const at = (f: Fix): Point => ({ latitude: f.latitude, longitude: f.longitude });

function tripOf(first: Fix, end: TrackPoint, completed: boolean): TripSegment {
  return {
    status: completed ? "completed" : "ongoing",
    startedAt: first.time,
    endedAt: completed ? end.fix.time : null,
    start: at(first),
    end: completed ? at(end.fix) : null,
    distance: end.distance,
    duration: (end.fix.time - first.time) / 1000,
    maxSpeed: end.maxSpeed,
    pointCount: end.count,
    firstFixTime: first.time,
    lastFixTime: end.fix.time,
  };
}

/** The track point of `f` after `prev`: the same sums in the same order as over the whole track, so equal bit for bit. */
export function extend(prev: TrackPoint, f: Fix): TrackPoint {
  const leg = haversineMeters(prev.fix, f);
  let maxSpeed = prev.maxSpeed;
  if (f.speed !== null && f.speed > maxSpeed) maxSpeed = f.speed;
  const dt = (f.time - prev.fix.time) / 1000;
  if (dt > 0 && leg / dt > maxSpeed) maxSpeed = leg / dt;
  return { fix: f, distance: prev.distance + leg, maxSpeed, count: prev.count + 1 };
}

/**
 * Whether the track point `p` lies within `d` metres of the later point `q` (closer than d; with `orEqual`, no
 * farther). The distance along the track between them bounds the great-circle one from above, so a point less than d
 * along the track is within d without the haversine; a centimetre of slack keeps the sums' rounding on the safe side.
 * A moving trackable's walk back over its recent points then costs a subtraction a point, not a haversine.
 */
function within(p: TrackPoint, q: TrackPoint, d: number, orEqual = false): boolean {
  if (q.distance - p.distance < d - ALONG_SLACK_M) return true;
  const m = haversineMeters(p.fix, q.fix);
  return orEqual ? m <= d : m < d;
}
const ALONG_SLACK_M = 0.01;

type OpenStop = Extract<OpenSegment, { kind: "stop" }>;

/**
 * Splits time-ordered usable fixes into stops and trips (the contract's rules, speed-independent), one fix at a time:
 * - stopped at the first fix; a fix minTripDistance or more from the stop's position starts a trip whose track begins
 *   at the stop's last fix;
 * - a trip ends when the run of its latest fixes within minTripDistance of the newest spans minStopDuration: the stop
 *   begins at that run's first fix (the trip's endedAt), at the newest fix's position;
 * - a gap of stopGap or more ends a trip at its last fix before the gap (a stop begins there); after a gap a stop
 *   whose next fix lies far away ends at its last fix and a new one begins at that fix, with no trip between.
 * `state()` is the open segment at any point; a Segmenter started from it goes on exactly as this one would.
 */
export class Segmenter {
  private readonly trips: TripSegment[] = [];
  private readonly stops: StopSegment[] = [];
  private stop: OpenStop | null = null;
  private first: Fix | null = null;
  private track: TrackPoint[] = [];
  /** The lowest index of `track` a run may begin at: 1 while track[0] is the trip's first fix (the stop's last). */
  private floor = 1;
  private readonly D: number;
  private readonly minStopMs: number;
  private readonly gapMs: number;

  constructor(settings: MotionSettings, from?: OpenSegment | null) {
    this.D = settings.minTripDistance;
    this.minStopMs = settings.minStopDuration * 1000;
    this.gapMs = settings.stopGap * 1000;
    if (from?.kind === "stop") this.stop = { ...from };
    else if (from?.kind === "trip") {
      this.first = from.first;
      this.track = [...from.tail];
      this.floor = from.whole ? 1 : 0;
    }
  }

  /** The next fix, in (time, position) order after every fix before it. */
  push(f: Fix): void {
    const stop = this.stop;
    if (stop) {
      if (haversineMeters(stop.anchor, f) < this.D) {
        stop.last = f;
      } else if (f.time - stop.last.time >= this.gapMs) {
        this.stops.push(this.stopOf(stop, true));
        this.stop = { kind: "stop", startedAt: f.time, anchor: at(f), anchorAt: f.time, last: f };
      } else {
        this.stops.push(this.stopOf(stop, true));
        const start: TrackPoint = { fix: stop.last, distance: 0, maxSpeed: 0, count: 1 };
        this.first = stop.last;
        this.track = [start, extend(start, f)];
        this.floor = 1;
        this.stop = null;
      }
      return;
    }
    const track = this.track;
    if (track.length === 0) {
      this.stop = { kind: "stop", startedAt: f.time, anchor: at(f), anchorAt: f.time, last: f };
      return;
    }
    const prev = track[track.length - 1]!;
    if (f.time - prev.fix.time >= this.gapMs) {
      this.trips.push(tripOf(this.first!, prev, true));
      this.stop = { kind: "stop", startedAt: prev.fix.time, anchor: at(prev.fix), anchorAt: prev.fix.time, last: prev.fix };
      this.track = [];
      this.push(f); // the fix after the gap is judged against the new stop
      return;
    }
    const newest = extend(prev, f);
    track.push(newest);
    // The run of the newest fixes within D of f, walked back from f; it stops the trip once it spans minStopDuration.
    let k = track.length - 1;
    while (k > this.floor && within(track[k - 1]!, newest, this.D)) k--;
    if (f.time - track[k]!.fix.time >= this.minStopMs) {
      this.trips.push(tripOf(this.first!, track[k]!, true));
      this.stop = { kind: "stop", startedAt: track[k]!.fix.time, anchor: at(f), anchorAt: f.time, last: f };
      this.track = [];
    }
  }

  /**
   * The open segment now (null before any fix). Of a trip's track it keeps the newest points that lie within
   * 2·minTripDistance (+1 m for rounding) of the newest: a later fix's run is a suffix of the track within
   * minTripDistance of that fix, so it holds the newest point, and every point of it lies within 2·minTripDistance
   * of the newest (triangle inequality); the point before the kept tail lies farther and ends any walk there.
   */
  state(): OpenSegment | null {
    if (this.stop) return { ...this.stop };
    const track = this.track;
    if (track.length === 0) return null;
    const newest = track[track.length - 1]!;
    let b = track.length - 1;
    while (b > 0 && within(track[b - 1]!, newest, 2 * this.D + 1, true)) b--;
    return { kind: "trip", first: this.first!, tail: track.slice(b), whole: this.floor === 1 && b === 0 };
  }

  /** The trips and stops so far, the open one last (ongoing). */
  finish(): Segmentation {
    const trips = [...this.trips];
    const stops = [...this.stops];
    if (this.stop) stops.push(this.stopOf(this.stop, false));
    else if (this.track.length > 0) trips.push(tripOf(this.first!, this.track[this.track.length - 1]!, false));
    return { trips, stops };
  }

  private stopOf(s: OpenStop, ended: boolean): StopSegment {
    return {
      startedAt: s.startedAt,
      endedAt: ended ? s.last.time : null,
      latitude: s.anchor.latitude,
      longitude: s.anchor.longitude,
      duration: (s.last.time - s.startedAt) / 1000,
      anchorAt: s.anchorAt,
    };
  }
}

/**
 * The segments of time-ordered usable fixes, from the first (a stop) or resuming from a stored stop whose confirming
 * fix is the first of `fixes`.
 */
export function segment(fixes: readonly Fix[], settings: MotionSettings, resume?: StopState): Segmentation {
  if (fixes.length === 0) return { trips: [], stops: [] };
  const first = fixes[0]!;
  const m = new Segmenter(
    settings,
    resume ? { kind: "stop", startedAt: resume.startedAt, anchor: { latitude: resume.latitude, longitude: resume.longitude }, anchorAt: first.time, last: first } : null,
  );
  for (let i = resume ? 1 : 0; i < fixes.length; i++) m.push(fixes[i]!);
  return m.finish();
}

/** Motion settings as stored and patched: any subset; the rest take DEFAULT_MOTION. */
export type MotionSettingsInput = Partial<MotionSettings>;

/** The settings that apply: the stored ones over the defaults. */
export const motionSettings = (stored: MotionSettingsInput | null | undefined): MotionSettings => ({ ...DEFAULT_MOTION, ...(stored ?? {}) });
