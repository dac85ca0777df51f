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

/** A fix's speed: the reported one, else the leg speed from the previous fix; null when neither is known. */
export function fixSpeeds(fixes: readonly Fix[]): (number | null)[] {
  return fixes.map((f, i) => {
    if (f.speed !== null) return f.speed;
    if (i === 0) return null;
    const prev = fixes[i - 1]!;
    const dt = (f.time - prev.time) / 1000;
    return dt > 0 ? haversineMeters(prev, f) / dt : null;
  });
}

/**
 * Episodes of speedMinDuration seconds or more above the limit over time-ordered usable fixes: an episode starts at
 * the first fix above its limit, fires once at the first fix at least speedMinDuration later while still above, and
 * is re-armed by a fix at or below the limit (or where no limit applies). A fix of unknown speed changes nothing.
 */
export function speedEpisodes(fixes: readonly Fix[], speedMinDuration: number, limitAt: (fix: Fix) => AppliedLimit | null): SpeedEpisode[] {
  const out: SpeedEpisode[] = [];
  const speeds = fixSpeeds(fixes);
  let startedAt: number | null = null;
  let fired = false;
  for (let i = 0; i < fixes.length; i++) {
    const v = speeds[i]!;
    if (v === null) continue;
    const f = fixes[i]!;
    const applied = limitAt(f);
    if (applied === null || v <= applied.limit) {
      startedAt = null;
      fired = false;
      continue;
    }
    if (startedAt === null) startedAt = f.time;
    if (!fired && (f.time - startedAt) / 1000 >= speedMinDuration) {
      fired = true;
      out.push({ startedAt, fix: f, value: v, limit: applied.limit, geofenceId: applied.geofenceId });
    }
  }
  return out;
}
