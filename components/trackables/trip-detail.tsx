// One trip opened from the trips list: its path on a map (its own locations, not the range's track) and its speed.
import Link from "next/link";
import { Badge, Time } from "@/components/ui";
import { formatDuration, formatKm, formatKmh } from "@/lib/dashboard/format";
import type { MapConfig } from "@/lib/config/map";
import { simplifyForDrawing } from "@/lib/locations/simplify";
import type { OpenedTrip } from "@/lib/motion/dashboard";
import { TrackMap } from "./maps";
import { SpeedChart } from "./speed-chart";

export function TripDetail({ opened, config, name, closeHref }: { opened: OpenedTrip; config: MapConfig; name: string; closeHref: string }) {
  const { trip, points } = opened;
  const drawn = simplifyForDrawing(points);
  const last = points.at(-1);
  return (
    <section className="space-y-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset" data-testid="trip-detail" aria-labelledby="trip-detail-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="trip-detail-heading" className="text-sm font-semibold text-slate-900">
          Trip from <Time value={trip.startedAt} /> {trip.status === "ongoing" ? <Badge color="green">Ongoing</Badge> : null}
        </h3>
        <Link href={closeHref} scroll={false} className="text-sm font-medium text-indigo-700 hover:text-indigo-500">
          Close trip
        </Link>
      </div>
      <p className="flex flex-wrap gap-x-1 text-sm whitespace-nowrap text-slate-700">
        <span>
          {formatKm(trip.distance)} in {formatDuration(trip.duration)}
        </span>
        <span>· average {formatKmh(trip.averageSpeed)}</span>
        <span>· max {formatKmh(trip.maxSpeed)}</span>
      </p>
      {opened.truncated ? (
        <p className="text-xs text-amber-800" role="status">
          This trip has more positions than the map draws at once: the map and the chart show its latest part.
        </p>
      ) : null}
      <div data-testid="trip-map" data-point-count={points.length}>
        <TrackMap
          key={trip.id}
          config={config}
          className="h-64 w-full sm:h-80"
          online={false}
          points={drawn.map((p) => ({ latitude: p.latitude, longitude: p.longitude, at: p.timestamp }))}
          latest={last ? { latitude: last.latitude, longitude: last.longitude, accuracy: null, at: last.timestamp, name } : null}
        />
      </div>
      <SpeedChart samples={opened.speeds} positions={points.length} />
    </section>
  );
}
