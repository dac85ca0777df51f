"use client";
import { useSyncExternalStore } from "react";

// Every time the dashboard shows, in the viewer's time zone and language. The server does not know the viewer's zone:
// it renders the instant in UTC inside <time dateTime>, and the browser re-renders it in its own zone right after
// hydration (useSyncExternalStore's server snapshot keeps the first client render equal to the server's, so React
// sees no mismatch). Relative times ("2 minutes ago") tick on one shared clock.

type Value = Date | string | null | undefined;

// One clock for every relative time on the page: a tick a second while one of them shows seconds, else every 15 s.
const listeners = new Map<() => void, number>();
let timer: ReturnType<typeof setInterval> | undefined;
let period = 0;
let nowMs = 0;

function restartClock() {
  const wanted = listeners.size === 0 ? 0 : Math.min(...listeners.values());
  if (wanted === period) return;
  if (period === 0) nowMs = Date.now(); // a clock that starts again begins at the current time
  clearInterval(timer);
  period = wanted;
  if (wanted) {
    timer = setInterval(() => {
      nowMs = Date.now();
      for (const l of listeners.keys()) l();
    }, wanted);
  }
}

// One subscribe function per tick length: React re-subscribes whenever the function changes identity.
const subscribers = new Map<number, (onChange: () => void) => () => void>();
function subscribeEvery(everyMs: number) {
  let subscribe = subscribers.get(everyMs);
  if (!subscribe) {
    subscribe = (onChange) => {
      listeners.set(onChange, everyMs);
      restartClock();
      return () => {
        listeners.delete(onChange);
        restartClock();
      };
    };
    subscribers.set(everyMs, subscribe);
  }
  return subscribe;
}
const getNow = () => nowMs || (nowMs = Date.now()); // stable between ticks (React compares snapshots)
const getServerNow = () => null;

function useNow(everyMs: number): number | null {
  return useSyncExternalStore(subscribeEvery(everyMs), getNow, getServerNow);
}

const noop = () => () => {};
/** false on the server and during hydration, true after: the moment the browser's zone may be used. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

const toDate = (v: Date | string) => (typeof v === "string" ? new Date(v) : v);

/** "Nov 22, 2026, 2:33 AM EST" in the browser's zone and language (with seconds when asked). */
export function formatLocal(d: Date, opts: { seconds?: boolean; timeZone?: string; dateOnly?: boolean } = {}): string {
  return new Intl.DateTimeFormat(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...(opts.dateOnly ? {} : { hour: "numeric", minute: "2-digit", ...(opts.seconds ? { second: "2-digit" } : {}), timeZoneName: "short" }),
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
  }).format(d);
}

const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "in 30 seconds" (with seconds: the exact count under a minute). */
export function formatRelative(d: Date, nowMs: number, seconds = false): string {
  const s = Math.round((d.getTime() - nowMs) / 1000);
  if (Math.abs(s) < 60) {
    if (seconds) return s === 0 ? "now" : rtf.format(s, "second");
    if (Math.abs(s) < 45) return "just now";
  }
  for (const [unit, size] of UNITS) if (Math.abs(s) >= size || unit === "minute") return rtf.format(Math.round(s / size), unit);
  return "just now";
}

/**
 * "7:05 AM" today, "Nov 24, 7:05 AM" on another day: in the viewer's zone and language (or the ones given), for
 * "since 7:05 AM" phrases.
 */
export function formatClock(d: Date, nowMs: number = Date.now(), timeZone?: string, locale?: string): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const sameDay = day.format(d) === day.format(new Date(nowMs));
  return new Intl.DateTimeFormat(locale, { ...(sameDay ? {} : { month: "short", day: "numeric" }), hour: "numeric", minute: "2-digit", timeZone }).format(d);
}

/**
 * What the server renders (and the first client render repeats): the instant in UTC. A `clock` time is as short as
 * the local one that replaces it, the date only when it is not today in UTC ("3:34 UTC" for "3:34 AM"): in a list of
 * them the rows keep their height through hydration, and what is below them does not move. (Around midnight UTC the
 * server and the first client render may disagree on "today": the <time> elements suppress that warning.)
 */
export const utcText = (d: Date, opts: { seconds?: boolean; dateOnly?: boolean; clock?: boolean; nowMs?: number } = {}) => {
  if (opts.dateOnly) return d.toLocaleDateString("en-GB", { dateStyle: "medium", timeZone: "UTC" });
  if (opts.clock) return `${formatClock(d, opts.nowMs, "UTC", "en-GB")} UTC`;
  return `${d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: opts.seconds ? "medium" : "short", timeZone: "UTC" })} UTC`;
};

/**
 * An instant: by default the date and time in the viewer's zone; `relative` shows "3 minutes ago" (kept current);
 * `seconds` adds seconds (deliveries and attempts, where retries are seconds apart); `clock` shows the time of day
 * only (with the date when it is not today). The title is the UTC ISO instant.
 */
export function Time({
  value,
  fallback = "—",
  relative = false,
  seconds = false,
  dateOnly = false,
  clock = false,
  className,
  "data-testid": testId,
}: {
  value: Value;
  fallback?: string;
  relative?: boolean;
  seconds?: boolean;
  dateOnly?: boolean;
  clock?: boolean;
  className?: string;
  "data-testid"?: string;
}) {
  const hydrated = useHydrated();
  if (!value) return <span className="text-slate-500">{fallback}</span>;
  const d = toDate(value);
  const iso = d.toISOString();
  if (relative) return <RelativeTime d={d} iso={iso} seconds={seconds} className={className} testId={testId} />;
  return (
    <time dateTime={iso} title={iso} className={className} data-testid={testId} suppressHydrationWarning>
      {hydrated ? (clock ? formatClock(d) : formatLocal(d, { seconds, dateOnly })) : utcText(d, { seconds, dateOnly, clock })}
    </time>
  );
}

function RelativeTime({ d, iso, seconds, className, testId }: { d: Date; iso: string; seconds: boolean; className?: string; testId?: string }) {
  const now = useNow(seconds ? 1000 : 15_000);
  return (
    <time dateTime={iso} title={now === null ? iso : `${formatLocal(d, { seconds: true })} (${iso})`} className={className} data-testid={testId}>
      {now === null ? utcText(d, { seconds }) : formatRelative(d, now, seconds)}
    </time>
  );
}
