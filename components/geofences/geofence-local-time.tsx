"use client";
// The geofence page's times, in the viewer's time zone (the browser's Intl), with the UTC instant on hover. Local to
// components/geofences until the dashboard's shared time component exists. Renders the UTC text until mounted, so a
// server render and the first client render agree.
import { useEffect, useState } from "react";

const utc = (d: Date) => `${d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;
const local = (d: Date) => d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
];

function relative(d: Date, now: number): string {
  const seconds = Math.round((d.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of UNITS) if (Math.abs(seconds) >= size || unit === "minute") return rtf.format(Math.round(seconds / size), unit);
  return "just now";
}

/** An instant as local date and time ("22 Nov 2026, 23:05:12"), or relative ("5 minutes ago") with the local time after it. */
export function GeofenceLocalTime({ iso, relativeTo, className }: { iso: string; relativeTo?: "now"; className?: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (!relativeTo) return;
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, [relativeTo]);
  const d = new Date(iso);
  const text = now === null ? utc(d) : relativeTo ? `${relative(d, now)} (${local(d)})` : local(d);
  return (
    <time dateTime={iso} title={utc(d)} className={className}>
      {text}
    </time>
  );
}
