// Time phrases of the public share page ("Updated 12 seconds ago", "expires in 23 hours"), in one place.

const UNITS: Array<[limit: number, size: number, unit: string]> = [
  [60, 1, "second"],
  [3600, 60, "minute"],
  [86_400, 3600, "hour"],
  [Infinity, 86_400, "day"],
];

/** "12 seconds", "1 minute", "3 hours", "2 days": the largest whole unit of a non-negative duration. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const [, size, unit] = UNITS.find(([limit]) => s < limit)!;
  const n = Math.floor(s / size);
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/** "just now" for anything under 2 s (or a device clock slightly ahead), else "12 seconds ago". */
export const ago = (thenMs: number, nowMs: number): string => (nowMs - thenMs < 2000 ? "just now" : `${duration(nowMs - thenMs)} ago`);

/** "in 23 hours"; "in less than a minute" under 60 s. */
export const until = (thenMs: number, nowMs: number): string =>
  thenMs - nowMs < 60_000 ? "in less than a minute" : `in ${duration(thenMs - nowMs)}`;

/** 52.52, 13.405 → "52.52000° N, 13.40500° E". */
export function coordinates(lat: number, lon: number): string {
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? "N" : "S"}, ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? "E" : "W"}`;
}
