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

interface OpenStop {
  startedAt: number;
  anchor: Point;
  anchorAt: number;
  last: Fix;
}

const at = (f: Fix): Point => ({ latitude: f.latitude, longitude: f.longitude });

function tripOf(track: readonly Fix[], completed: boolean): TripSegment {
  const first = track[0]!;
  const last = track[track.length - 1]!;
  let distance = 0;
  let maxSpeed = 0;
  for (let i = 0; i < track.length; i++) {
    const f = track[i]!;
    if (f.speed !== null && i > 0 && f.speed > maxSpeed) maxSpeed = f.speed;
    if (i === 0) continue;
    const prev = track[i - 1]!;
    const leg = haversineMeters(prev, f);
    distance += leg;
    const dt = (f.time - prev.time) / 1000;
    if (dt > 0 && leg / dt > maxSpeed) maxSpeed = leg / dt;
  }
  return {
    status: completed ? "completed" : "ongoing",
    startedAt: first.time,
    endedAt: completed ? last.time : null,
    start: at(first),
    end: completed ? at(last) : null,
    distance,
    duration: (last.time - first.time) / 1000,
    maxSpeed,
    pointCount: track.length,
    firstFixTime: first.time,
    lastFixTime: last.time,
  };
}

/**
 * Splits time-ordered usable fixes into stops and trips (the contract's rules, speed-independent):
 * - stopped at the first fix; a fix minTripDistance or more from the stop's position starts a trip whose track begins
 *   at the stop's last fix;
 * - a trip ends when the run of its latest fixes within minTripDistance of the newest spans minStopDuration: the stop
 *   begins at that run's first fix (the trip's endedAt), at the newest fix's position;
 * - a gap of stopGap or more ends a trip at its last fix before the gap (a stop begins there); after a gap a stop
 *   whose next fix lies far away ends at its last fix and a new one begins at that fix, with no trip between.
 */
export function segment(fixes: readonly Fix[], settings: MotionSettings, resume?: StopState): Segmentation {
  const trips: TripSegment[] = [];
  const stops: StopSegment[] = [];
  if (fixes.length === 0) return { trips, stops };
  const D = settings.minTripDistance;
  const minStopMs = settings.minStopDuration * 1000;
  const gapMs = settings.stopGap * 1000;

  const first = fixes[0]!;
  let stop: OpenStop | null = resume
    ? { startedAt: resume.startedAt, anchor: { latitude: resume.latitude, longitude: resume.longitude }, anchorAt: first.time, last: first }
    : { startedAt: first.time, anchor: at(first), anchorAt: first.time, last: first };
  let track: Fix[] = [];

  const stopOf = (s: OpenStop, ended: boolean): StopSegment => ({
    startedAt: s.startedAt,
    endedAt: ended ? s.last.time : null,
    latitude: s.anchor.latitude,
    longitude: s.anchor.longitude,
    duration: (s.last.time - s.startedAt) / 1000,
    anchorAt: s.anchorAt,
  });
  const closeStop = (s: OpenStop) => stops.push(stopOf(s, true));

  for (let i = 1; i < fixes.length; i++) {
    const f = fixes[i]!;
    if (stop) {
      if (haversineMeters(stop.anchor, f) < D) {
        stop.last = f;
      } else if (f.time - stop.last.time >= gapMs) {
        closeStop(stop);
        stop = { startedAt: f.time, anchor: at(f), anchorAt: f.time, last: f };
      } else {
        closeStop(stop);
        track = [stop.last, f];
        stop = null;
      }
      continue;
    }
    const prev = track[track.length - 1]!;
    if (f.time - prev.time >= gapMs) {
      trips.push(tripOf(track, true));
      stop = { startedAt: prev.time, anchor: at(prev), anchorAt: prev.time, last: prev };
      track = [];
      i--; // the fix after the gap is judged against the new stop
      continue;
    }
    track.push(f);
    // The run of the newest fixes within D of f, walked back from f; it stops the trip once it spans minStopDuration.
    let k = track.length - 1;
    while (k > 1 && haversineMeters(track[k - 1]!, f) < D) k--;
    if (f.time - track[k]!.time >= minStopMs) {
      const ended = track.slice(0, k + 1);
      trips.push(tripOf(ended, true));
      stop = { startedAt: track[k]!.time, anchor: at(f), anchorAt: f.time, last: f };
      track = [];
    }
  }
  if (stop) {
    stops.push(stopOf(stop, false));
  } else {
    trips.push(tripOf(track, false));
  }
  return { trips, stops };
}

/** Motion settings as stored and patched: any subset; the rest take DEFAULT_MOTION. */
export type MotionSettingsInput = Partial<MotionSettings>;

/** The settings that apply: the stored ones over the defaults. */
export const motionSettings = (stored: MotionSettingsInput | null | undefined): MotionSettings => ({ ...DEFAULT_MOTION, ...(stored ?? {}) });
