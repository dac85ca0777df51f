import { inTimestampRange } from "@/lib/schemas/common";

// The time range of a trackable's track page, read from its URL (?range=1h|24h|7d, or ?range=custom&from=&to=)
// so a view can be shared and is rendered on the server. Custom bounds are UTC instants: the range picker shows them in
// the viewer's zone and sends ISO instants ("2026-11-22T07:30:00.000Z"); a bound without an offset
// ("2026-11-22T07:30", older links) is read as UTC.

export const RANGE_PRESETS = [
  { id: "1h", label: "Last hour", ms: 60 * 60 * 1000 },
  { id: "24h", label: "Last 24 hours", ms: 24 * 60 * 60 * 1000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 24 * 60 * 60 * 1000 },
] as const;

export type RangePreset = (typeof RANGE_PRESETS)[number]["id"];
export const DEFAULT_RANGE: RangePreset = "24h";

export interface TimeRange {
  preset: RangePreset | "custom";
  from: Date;
  /** Undefined for presets: up to now, including points a device stamped slightly ahead of the server clock. */
  to?: Date;
  /** The bounds as UTC ISO instants (what the URL carries; the picker shows them in local time), or what was typed. */
  fromInput: string;
  toInput: string;
  /** Why the custom range in the URL was not used (the default range is shown instead). */
  error?: string;
}

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** "2026-11-22T07:30:00.000Z", or "2026-11-22T07:30" read as UTC → Date; seconds are optional; anything else → null. */
export function parseUtcInput(value: string | undefined): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z?$/.test(value)) return null;
  const d = new Date(value.endsWith("Z") ? value : `${value}Z`);
  return inTimestampRange(d) ? d : null;
}

/** Date → its UTC ISO instant, as the URL carries it. */
export const toUtcInput = (d: Date): string => d.toISOString();

export function parseTimeRange(params: Params, now: Date): TimeRange {
  const range = first(params.range);
  if (range === "custom") {
    const fromRaw = first(params.from);
    const toRaw = first(params.to);
    const from = parseUtcInput(fromRaw);
    const to = toRaw ? parseUtcInput(toRaw) : undefined;
    let error: string | undefined;
    if (!from) error = "Enter a valid start date and time.";
    else if (to === null) error = "Enter a valid end date and time, or leave it empty for “now”.";
    else if (to && from > to) error = "The start must be before the end.";
    if (!error && from) {
      // An end minute includes its whole minute ("to 10:15" shows a point at 10:15:42).
      const end = to ? new Date(to.getTime() + 59_999) : undefined;
      return { preset: "custom", from, to: end, fromInput: toUtcInput(from), toInput: to ? toUtcInput(to) : "" };
    }
    return { ...preset(DEFAULT_RANGE, now), fromInput: fromRaw ?? "", toInput: toRaw ?? "", error };
  }
  const known = RANGE_PRESETS.find((p) => p.id === range);
  return preset(known?.id ?? DEFAULT_RANGE, now);
}

function preset(id: RangePreset, now: Date): TimeRange {
  const ms = RANGE_PRESETS.find((p) => p.id === id)!.ms;
  const from = new Date(now.getTime() - ms);
  return { preset: id, from, fromInput: toUtcInput(from), toInput: toUtcInput(now) };
}

/**
 * What the URL says the range is: the same string for every render of one page (a preset's bounds move with the clock,
 * its key does not), another for another range. State the viewer made for a range (the map's view and playback, what
 * was typed into the custom range) is keyed by it, so a live re-render keeps it and choosing another range resets it.
 */
export function rangeKey(range: TimeRange): string {
  return range.preset === "custom" || range.error ? `custom:${range.fromInput}:${range.toInput}` : range.preset;
}

/** The query string that names a range in a link ("range=24h", or the custom bounds), to keep it while adding more. */
export function rangeQuery(range: TimeRange): URLSearchParams {
  if (range.preset !== "custom") return new URLSearchParams({ range: range.preset });
  const q = new URLSearchParams({ range: "custom", from: range.fromInput });
  if (range.toInput) q.set("to", range.toInput);
  return q;
}
