// The track card of a trackable's page: the range's path on a map with the geofences, privacy zones and transitions
// around it, the range picker and the download; before any position, how to post the first one.
import type { MapFence } from "@/components/map/fences";
import type { MapZone } from "@/components/map/privacy-zones";
import { Card, Time } from "@/components/ui";
import type { MapConfig } from "@/lib/config/map";
import { rangeKey, type TimeRange } from "@/lib/dashboard/time-range";
import type { Location } from "@/lib/locations/schemas";
import { MAX_TRACK_POINTS } from "@/lib/locations/track";
import { ExportForm } from "./export-form";
import { FirstLocationHelp } from "./first-location-help";
import { TrackMap } from "./maps";
import { RangePicker } from "./range-picker";
import type { TrackTransition } from "./track-map";

export function TrackCard({
  trackableId,
  trackableName,
  appUrl,
  config,
  latest,
  points,
  drawn,
  truncated,
  range,
  basePath,
  online,
  fences,
  zones,
  transitions,
}: {
  trackableId: string;
  trackableName: string;
  appUrl: string;
  config: MapConfig;
  /** The trackable's newest position (null: none yet). */
  latest: Location | null;
  /** Every point of the range, oldest first, and the ones the map draws. */
  points: Location[];
  drawn: Location[];
  truncated: boolean;
  range: TimeRange;
  basePath: string;
  /** The device is online: the newest point is drawn in the live colour. */
  online: boolean;
  fences: MapFence[];
  zones: MapZone[];
  transitions: TrackTransition[];
}) {
  const marker = points.at(-1) ?? latest;
  if (!latest) {
    return (
      <Card aria-labelledby="no-positions-heading" className="p-5">
        <h2 id="no-positions-heading" className="text-base font-semibold text-slate-900">
          No positions yet
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">Post a first position and its track appears here.</p>
        <FirstLocationHelp appUrl={appUrl} trackableId={trackableId} trackableName={trackableName} />
      </Card>
    );
  }
  return (
    <Card aria-labelledby="track-heading" className="p-4 sm:p-5">
      <div className="mb-3 flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="track-heading" className="text-base font-semibold text-slate-900">
            Track
          </h2>
          <p className="text-sm text-slate-600" data-testid="track-point-count">
            {points.length === 1 ? "1 point" : `${points.length.toLocaleString("en")} points`}{" "}
            <span className="text-slate-500">
              · <Time value={range.from} /> – {range.to ? <Time value={range.to} /> : "now"}
            </span>
          </p>
        </div>
        <RangePicker basePath={basePath} range={range} />
        {points.length > 0 ? <ExportForm trackableId={trackableId} range={range} /> : null}
        {drawn.length < points.length ? (
          <p className="text-xs text-slate-500" data-testid="track-simplified">
            The map draws {drawn.length.toLocaleString("en")} of the {points.length.toLocaleString("en")} points (simplified
            for drawing); the table and the download hold every point.
          </p>
        ) : null}
        {truncated ? (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200 ring-inset" role="status">
            Showing the latest {MAX_TRACK_POINTS.toLocaleString("en")} points of this range; narrow the range to see older ones.
          </p>
        ) : null}
        {points.length === 0 ? (
          <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset" role="status">
            No positions in this range. The map shows the latest one, from <Time value={latest.timestamp} relative />.
          </p>
        ) : null}
      </div>
      <div data-testid="track-map" data-point-count={points.length} data-drawn-count={drawn.length}>
        <TrackMap
          // A new range draws a new map; a live re-render of the same range keeps its view and playback.
          key={rangeKey(range)}
          config={config}
          className="h-80 w-full sm:h-[28rem]"
          // The live colour only when the highlighted point is the trackable's newest, not an old range's end.
          online={online && marker?.id === latest.id}
          points={drawn.map((p) => ({ latitude: p.latitude, longitude: p.longitude, at: p.timestamp }))}
          fences={fences}
                    zones={zones}
          transitions={transitions}
                    latest={
            marker
              ? {
                  latitude: marker.latitude,
                  longitude: marker.longitude,
                  accuracy: marker.accuracy,
                  at: marker.timestamp,
                  name: trackableName,
                }
              : null
          }
        />
      </div>
    </Card>
  );
}
