// Speed episodes: runs of fixes above the limit that applies where each fix is, pure like segment.ts.
import { haversineMeters } from "@/lib/geofences/haversine";
import type { Fix } from "./segment";

/** The limit at a fix: the trackable's own or a geofence's (the lower wins); null when none applies. */
export interface AppliedLimit {
  limit: number;
  geofenceId: string | null;
}

export interface SpeedEpisode {
  /** Time of the episode's first fix above the limit: with the trackable, the episode's stable key. */
  startedAt: number;
  /** The fix at which the episode had lasted speedMinDuration: the event's occurred_at and location. */
  fix: Fix;
  value: number;
  limit: number;
  geofenceId: string | null;
}

/** The lower of the trackable's limit and the limits of the geofences containing the point (null: none). */
export function lowerLimit(own: number | null, fences: readonly { id: string; speedLimit: number | null }[]): AppliedLimit | null {
  let best: AppliedLimit | null = own === null ? null : { limit: own, geofenceId: null };
  for (const f of fences) {
    if (f.speedLimit !== null && (best === null || f.speedLimit < best.limit)) best = { limit: f.speedLimit, geofenceId: f.id };
  }
  return best;
}

/** The fix a leg speed is measured from: the previous one when it is earlier, else none. */
function legFrom(f: Fix, prev: Fix | null): Fix | null {
  return prev !== null && f.time > prev.time ? prev : null;
}

/** Whether a fix's speed is known: reported, or a leg from the previous fix. */
function speedKnown(f: Fix, prev: Fix | null): boolean {
  return f.speed !== null || legFrom(f, prev) !== null;
}

/** A fix's speed: the reported one, else the leg speed from the previous fix; null when neither is known. */
function speedAt(f: Fix, prev: Fix | null): number | null {
  if (f.speed !== null) return f.speed;
  const from = legFrom(f, prev);
  return from === null ? null : haversineMeters(from, f) / ((f.time - from.time) / 1000);
}

/** Where the episode rule stands after some fixes: enough to go on with the next ones as if from the first. */
export interface SpeedState {
  /** The previous usable fix (the leg speed of a fix without a reported one is from it). */
  prev: Fix | null;
  /** Time of the current episode's first fix above the limit; null when below it. */
  startedAt: number | null;
  fired: boolean;
}

/**
 * Episodes of speedMinDuration seconds or more above the limit over time-ordered usable fixes, one fix at a time: an
 * episode starts at the first fix above its limit, fires once at the first fix at least speedMinDuration later while
 * still above, and is re-armed by a fix at or below the limit (or where no limit applies). A fix of unknown speed
 * changes nothing.
 */
export class SpeedTracker {
  private s: SpeedState;

  constructor(
    private readonly speedMinDuration: number,
    from?: SpeedState | null,
  ) {
    this.s = from ? { ...from } : { prev: null, startedAt: null, fired: false };
  }

  /** The next fix and the limit that applies at it; the episode it completes, if any. */
  push(f: Fix, applied: AppliedLimit | null): SpeedEpisode | null {
    const prev = this.s.prev;
    this.s.prev = f;
    if (applied === null) {
      // No limit here: only whether the speed is known matters (a known one re-arms the rule), not its value.
      if (speedKnown(f, prev)) {
        this.s.startedAt = null;
        this.s.fired = false;
      }
      return null;
    }
    const v = speedAt(f, prev);
    if (v === null) return null;
    if (v <= applied.limit) {
      this.s.startedAt = null;
      this.s.fired = false;
      return null;
    }
    if (this.s.startedAt === null) this.s.startedAt = f.time;
    if (!this.s.fired && (f.time - this.s.startedAt) / 1000 >= this.speedMinDuration) {
      this.s.fired = true;
      return { startedAt: this.s.startedAt, fix: f, value: v, limit: applied.limit, geofenceId: applied.geofenceId };
    }
    return null;
  }

  state(): SpeedState {
    return { ...this.s };
  }
}

/** The episodes of a whole sequence of fixes (see SpeedTracker). */
export function speedEpisodes(fixes: readonly Fix[], speedMinDuration: number, limitAt: (fix: Fix) => AppliedLimit | null, from?: SpeedState): SpeedEpisode[] {
  const tracker = new SpeedTracker(speedMinDuration, from);
  const out: SpeedEpisode[] = [];
  for (const f of fixes) {
    const e = tracker.push(f, limitAt(f));
    if (e) out.push(e);
  }
  return out;
}
