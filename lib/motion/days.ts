// Local calendar days in an IANA time zone as UTC instants: the summary's periods. Pure; uses the runtime's tz data.

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in the zone. */
function wall(t: number, zone: string) {
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), min: Number(parts.minute), s: Number(parts.second) };
}

/** The zone's offset from UTC at an instant, in ms (wall clock minus UTC). */
function offsetAt(t: number, zone: string): number {
  const w = wall(t, zone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s) - Math.floor(t / 1000) * 1000;
}

/** The first instant of the local date y-m-d: its midnight, or the first wall time after a gap that swallowed it. */
export function startOfLocalDay(y: number, m: number, d: number, zone: string): number {
  const naive = Date.UTC(y, m - 1, d);
  let t = naive - offsetAt(naive, zone);
  t = naive - offsetAt(t, zone);
  // In a gap (no midnight that day) the guess lands on the previous day: the day starts where the gap ends.
  const w = wall(t, zone);
  if (Date.UTC(w.y, w.m - 1, w.d) < naive) {
    let lo = t;
    let hi = t + 3 * 3600_000;
    while (hi - lo > 1000) {
      const mid = Math.floor((lo + hi) / 2 / 1000) * 1000;
      const x = wall(mid, zone);
      if (Date.UTC(x.y, x.m - 1, x.d) < naive) lo = mid;
      else hi = mid;
    }
    t = hi;
  }
  return t;
}

export interface LocalDay {
  /** YYYY-MM-DD in the zone. */
  date: string;
  /** The day's first instant and the next day's, epoch ms (23, 24 or 25 hours apart around DST changes). */
  start: number;
  end: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The local days of the zone that overlap [from, to), in order. */
export function localDays(from: number, to: number, zone: string): LocalDay[] {
  const days: LocalDay[] = [];
  if (to <= from) return days;
  const w = wall(from, zone);
  let cursor = new Date(Date.UTC(w.y, w.m - 1, w.d));
  let start = startOfLocalDay(w.y, w.m, w.d, zone);
  while (start < to) {
    const next = new Date(cursor.getTime() + 86_400_000);
    const end = startOfLocalDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), zone);
    days.push({ date: `${pad(cursor.getUTCFullYear(), 4)}-${pad(cursor.getUTCMonth() + 1)}-${pad(cursor.getUTCDate())}`, start, end });
    cursor = next;
    start = end;
  }
  return days;
}
