// Small formatting helpers the dashboard pages share (rendered on the server, so no hydration drift).

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "just now", "5 minutes ago", "yesterday", "in 2 minutes" (a device clock ahead of ours). */
export function relativeTime(date: Date, now: Date): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "minute") return rtf.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** The exact time shown on hover and in details: "22 Nov 2026, 07:33:55 UTC". */
export function exactTime(date: Date): string {
  return `${date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;
}

export const formatCoord = (n: number) => n.toFixed(6);

/** "42 s", "6 min", "1 h 05 min": how long a trip or a stop lasted. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  return `${h} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** Metres as "5.4 km" (one decimal; two under a kilometre, where a tenth is a tenth of the whole). */
export const formatKm = (metres: number) => `${(metres / 1000).toLocaleString("en", { minimumFractionDigits: metres < 1000 ? 2 : 1, maximumFractionDigits: metres < 1000 ? 2 : 1 })} km`;

/** m/s as "43 km/h". */
export const formatKmh = (ms: number) => `${Math.round(ms * 3.6).toLocaleString("en")} km/h`;
