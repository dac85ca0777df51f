// A trackable's motion in the selected range: its trips (newest first; one can be opened to see its path and speed)
// and its stops. Server-rendered: opening a trip is a link (?trip=<id>) that keeps the range.
import Link from "next/link";
import { Badge, Card, cx, Time } from "@/components/ui";
import type { MapConfig } from "@/lib/config/map";
import { formatCoord, formatDuration, formatKm, formatKmh } from "@/lib/dashboard/format";
import { rangeQuery, type TimeRange } from "@/lib/dashboard/time-range";
import type { OpenedTrip } from "@/lib/motion/dashboard";
import type { Stop, Trip } from "@/lib/motion/schemas";
import { TripDetail } from "./trip-detail";

export function TripsPanel({
  trips,
  stops,
  more,
  opened,
  basePath,
  range,
  config,
  name,
  geofenceNames,
}: {
  trips: Trip[];
  stops: Stop[];
  more: boolean;
  opened: OpenedTrip | null;
  basePath: string;
  range: TimeRange;
  config: MapConfig;
  name: string;
  geofenceNames: Map<string, string>;
}) {
  const href = (tripId?: string) => {
    const q = rangeQuery(range);
    if (tripId) q.set("trip", tripId);
    return `${basePath}?${q.toString()}${tripId ? "#trips-heading" : ""}`;
  };
  return (
    <Card aria-labelledby="trips-heading" className="p-4 sm:p-5" data-testid="trips-panel">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="trips-heading" className="scroll-mt-4 text-base font-semibold text-slate-900">
          Trips
        </h2>
        <p className="text-sm text-slate-600">
          {trips.length === 1 ? "1 trip" : `${trips.length} trips`}, {stops.length === 1 ? "1 stop" : `${stops.length} stops`} in this range
        </p>
      </div>
      {opened ? (
        <div className="mb-4">
          <TripDetail opened={opened} config={config} name={name} closeHref={href()} />
        </div>
      ) : null}
      {trips.length === 0 ? (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset">No trips in this range.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200" aria-label="Trips in this range">
          {trips.map((t) => (
            <TripRow key={t.id} trip={t} href={href(t.id)} selected={opened?.trip.id === t.id} />
          ))}
        </ul>
      )}
      <h3 className="mt-5 mb-2 text-sm font-semibold text-slate-900">Stops</h3>
      {stops.length === 0 ? (
        <p className="text-sm text-slate-600">No stops in this range.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md text-sm ring-1 ring-slate-200" aria-label="Stops in this range">
          {stops.map((s) => (
            <li key={s.startedAt} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2" data-testid="stop-row">
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
          ))}
        </ul>
      )}
      {more ? (
        <p className="mt-3 text-xs text-slate-500">
          This range holds more; narrow it, or page through{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-700">GET /api/v1/trips</code>.
        </p>
      ) : null}
    </Card>
  );
}

function TripRow({ trip: t, href, selected }: { trip: Trip; href: string; selected: boolean }) {
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
