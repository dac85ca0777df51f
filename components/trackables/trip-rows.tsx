// The rows of the trips panel: a trip (a link that opens it) and a stop (where, when, how long).
import Link from "next/link";
import { Badge, cx, Time } from "@/components/ui";
import { formatCoord, formatDuration, formatKm, formatKmh } from "@/lib/dashboard/format";
import type { Stop, Trip } from "@/lib/motion/schemas";

export function TripRow({ trip: t, href, selected }: { trip: Trip; href: string; selected: boolean }) {
  return (
    <li data-testid="trip-row" data-trip-id={t.id} className={cx(selected && "bg-indigo-50/60")}>
      <Link
        href={href}
        scroll={false}
        aria-current={selected ? "true" : undefined}
        className="flex flex-col gap-1 px-3 py-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
      >
        <span className="text-sm font-medium text-indigo-700 tabular-nums">
          <Time value={t.startedAt} data-testid="trip-start" /> – {t.endedAt ? <Time value={t.endedAt} clock data-testid="trip-end" /> : null}
          {t.status === "ongoing" ? (
            <>
              {"now "}
              <Badge color="green" data-testid="trip-ongoing">
                Ongoing
              </Badge>
            </>
          ) : null}
        </span>
        <span className="flex flex-wrap gap-x-3 text-sm whitespace-nowrap text-slate-600 tabular-nums">
          <span data-testid="trip-distance">{formatKm(t.distance)}</span>
          <span>{formatDuration(t.duration)}</span>
          <span>avg {formatKmh(t.averageSpeed)}</span>
          <span>max {formatKmh(t.maxSpeed)}</span>
        </span>
      </Link>
    </li>
  );
}

export function StopRow({ stop: s, geofenceNames }: { stop: Stop; geofenceNames: Map<string, string> }) {
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2" data-testid="stop-row">
      <span className="min-w-0 text-slate-900">
        {s.geofenceIds.length > 0 ? s.geofenceIds.map((id) => geofenceNames.get(id) ?? "a deleted geofence").join(", ") : null}
        <span className={cx("font-mono text-xs text-slate-600", s.geofenceIds.length > 0 && "block")}>
          {formatCoord(s.latitude)}, {formatCoord(s.longitude)}
        </span>
      </span>
      <span className="text-slate-700 tabular-nums">
        <Time value={s.startedAt} clock /> – {s.endedAt ? <Time value={s.endedAt} clock /> : "now"}
        <span className="ml-2 text-slate-500">{formatDuration(s.duration)}</span>
      </span>
    </li>
  );
}

/** "Newest …" and "Older …" links under a list that has more pages (nothing when it is all on one). */
export function PageLinks({ noun, newest, older }: { noun: "trips" | "stops"; newest: string | null; older: string | null }) {
  if (!newest && !older) return null;
  const link = "rounded-md px-2 py-1 text-sm font-medium text-indigo-700 ring-1 ring-slate-200 hover:bg-slate-50 hover:text-indigo-500";
  return (
    <nav aria-label={`Pages of ${noun}`} className="mt-2 flex flex-wrap items-center justify-end gap-2" data-testid={`${noun}-pages`}>
      {newest ? (
        <Link href={newest} scroll={false} className={link}>
          Newest {noun}
        </Link>
      ) : null}
      {older ? (
        <Link href={older} scroll={false} className={link}>
          Older {noun} →
        </Link>
      ) : null}
    </nav>
  );
}
