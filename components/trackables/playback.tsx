"use client";
// Playback of a trackable's track: a clock that runs at a chosen speed while playing, where the track was at each
// instant (linear between points), and the controls under the map (play, speed, a time slider, the time).
import { useEffect, useMemo, useRef, useState } from "react";

export interface TrackPoint {
  latitude: number;
  longitude: number;
  /** ISO 8601 instant, shown in the viewer's time zone. */
  at: string;
}

export const PLAYBACK_SPEEDS = [1, 10, 60, 600] as const;

/** A time in the viewer's zone (the UTC instant goes in the element's title). */
export const localTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

interface Playback {
  /** Milliseconds since the track's first point; null before playback is first used. */
  elapsed: number | null;
  duration: number;
  start: number;
  playing: boolean;
  speed: number;
  position: [number, number] | null;
  toggle(): void;
  seek(ms: number): void;
  setSpeed(s: number): void;
}

/** Where the track was at each instant (linear between points), and a clock that runs at `speed` while playing. */
export function usePlayback(points: TrackPoint[]): Playback {
  const times = useMemo(() => points.map((p) => Date.parse(p.at)), [points]);
  const start = times[0] ?? 0;
  const duration = times.length > 1 ? times.at(-1)! - start : 0;
  const [elapsed, setElapsedState] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(60);
  // The clock's value for the animation loop, which must not wait for a render to read it.
  const clock = useRef<number | null>(null);
  const setElapsed = (ms: number) => {
    clock.current = ms;
    setElapsedState(ms);
  };

  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const next = Math.min(duration, (clock.current ?? 0) + (now - last) * speed);
      last = now;
      clock.current = next;
      setElapsedState(next);
      if (next >= duration) setPlaying(false);
      else frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, duration]);

  const position = useMemo((): [number, number] | null => {
    if (elapsed === null || points.length === 0) return null;
    const t = start + elapsed;
    // The last point at or before t (binary search), then linear towards the next.
    let lo = 0;
    let hi = times.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    const a = points[lo]!;
    const b = points[lo + 1];
    if (!b || times[lo + 1] === times[lo]) return [a.latitude, a.longitude];
    const f = (t - times[lo]!) / (times[lo + 1]! - times[lo]!);
    return [a.latitude + (b.latitude - a.latitude) * f, a.longitude + (b.longitude - a.longitude) * f];
  }, [elapsed, points, times, start]);

  return {
    elapsed,
    duration,
    start,
    playing,
    speed,
    position,
    toggle: () => {
      if (playing) return setPlaying(false);
      // At the end (or never started): play from the beginning.
      if (elapsed === null || elapsed >= duration) setElapsed(0);
      setPlaying(true);
    },
    seek: (ms) => setElapsed(Math.max(0, Math.min(duration, ms))),
    setSpeed,
  };
}

export function PlaybackControls({ playback: p }: { playback: Playback }) {
  const current = new Date(p.start + (p.elapsed ?? 0)).toISOString();
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset"
      role="group"
      aria-label="Playback"
      data-testid="playback"
      data-playback-time={p.elapsed === null ? "" : current}
    >
      <button
        type="button"
        onClick={p.toggle}
        className="inline-flex h-9 min-w-20 items-center justify-center gap-1.5 rounded-md bg-indigo-600 px-3 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <span aria-hidden="true">{p.playing ? "❚❚" : "▶"}</span>
        {p.playing ? "Pause" : "Play"}
      </button>
      <label className="flex items-center gap-1.5 text-sm text-slate-700">
        Speed
        <select
          value={p.speed}
          onChange={(e) => p.setSpeed(Number(e.target.value))}
          className="h-9 rounded-md border-0 bg-white py-1 pr-8 pl-2 text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
        >
          {PLAYBACK_SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        aria-label="Playback time"
        aria-valuetext={localTime(current)}
        min={0}
        max={Math.max(1, Math.round(p.duration / 1000))}
        step={1}
        value={Math.round((p.elapsed ?? 0) / 1000)}
        onChange={(e) => p.seek(Number(e.target.value) * 1000)}
        className="h-9 min-w-0 flex-1 basis-40 accent-indigo-600"
      />
      <time dateTime={current} title={current} className="w-full text-xs text-slate-600 tabular-nums sm:w-auto" data-testid="playback-time">
        {localTime(current)}
      </time>
    </div>
  );
}
