// A trackable's motion in the selected range: its trips (newest first; one can be opened to see its path and speed)
// and its stops, PANEL_ROWS of each at a time with links to the older pages. Server-rendered: opening a trip and
// paging are links (?trip=<id>, ?tripsAfter=<cursor>, ?stopsAfter=<cursor>) that keep the range and each other.
import { Card } from "@/components/ui";
import type { MapConfig } from "@/lib/config/map";
import { rangeQuery, type TimeRange } from "@/lib/dashboard/time-range";
import type { MotionPanel } from "@/lib/motion/dashboard";
import { TripDetail } from "./trip-detail";
import { PageLinks, StopRow, TripRow } from "./trip-rows";

/** What the panel's links carry besides the range: the opened trip and the page of each list. */
export interface PanelPlace {
  trip?: string;
  tripsAfter?: string;
  stopsAfter?: string;
}

export function TripsPanel({
  panel,
  place,
  basePath,
  range,
  config,
  name,
  geofenceNames,
}: {
  panel: MotionPanel;
  place: PanelPlace;
  basePath: string;
  range: TimeRange;
  config: MapConfig;
  name: string;
  geofenceNames: Map<string, string>;
}) {
  const { trips, stops, opened } = panel;
  // Cursors the panel fell back from (not ours) are not carried on.
  const here: PanelPlace = { trip: place.trip, tripsAfter: panel.tripsPaged ? place.tripsAfter : undefined, stopsAfter: panel.stopsPaged ? place.stopsAfter : undefined };
  /** This place with some parts changed ("" drops one), and where on the page to land. */
  const href = (change: Partial<PanelPlace>, anchor?: string) => {
    const q = rangeQuery(range);
    for (const [key, value] of Object.entries({ ...here, ...change })) if (value) q.set(key, value);
    return `${basePath}?${q.toString()}${anchor ? `#${anchor}` : ""}`;
  };
  const paged = panel.tripsPaged || panel.stopsPaged || panel.nextTrips !== null || panel.nextStops !== null;
  return (
    <Card aria-labelledby="trips-heading" className="p-4 sm:p-5" data-testid="trips-panel">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="trips-heading" className="scroll-mt-4 text-base font-semibold text-slate-900">
          Trips
        </h2>
        <p className="text-sm text-slate-600" data-testid="trips-count">
          {trips.length === 1 ? "1 trip" : `${trips.length} trips`}, {stops.length === 1 ? "1 stop" : `${stops.length} stops`}{" "}
          {paged ? "on these pages, newest first" : "in this range"}
        </p>
      </div>
      {opened ? (
        <div className="mb-4">
          <TripDetail opened={opened} config={config} name={name} closeHref={href({ trip: "" })} />
        </div>
      ) : null}
      {trips.length === 0 ? (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset">No trips in this range.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200" aria-label="Trips in this range">
          {trips.map((t) => (
            <TripRow key={t.id} trip={t} href={href({ trip: t.id }, "trips-heading")} selected={opened?.trip.id === t.id} />
          ))}
        </ul>
      )}
      <PageLinks
        noun="trips"
        newest={panel.tripsPaged ? href({ tripsAfter: "" }, "trips-heading") : null}
        older={panel.nextTrips ? href({ tripsAfter: panel.nextTrips }, "trips-heading") : null}
      />
      <h3 id="stops-heading" className="mt-5 mb-2 scroll-mt-4 text-sm font-semibold text-slate-900">
        Stops
      </h3>
      {stops.length === 0 ? (
        <p className="text-sm text-slate-600">No stops in this range.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md text-sm ring-1 ring-slate-200" aria-label="Stops in this range">
          {stops.map((s) => (
            <StopRow key={s.startedAt} stop={s} geofenceNames={geofenceNames} />
          ))}
        </ul>
      )}
      <PageLinks
        noun="stops"
        newest={panel.stopsPaged ? href({ stopsAfter: "" }, "stops-heading") : null}
        older={panel.nextStops ? href({ stopsAfter: panel.nextStops }, "stops-heading") : null}
      />
    </Card>
  );
}
