import type { Metadata } from "next";
import { findOr404, whileItExists } from "@/lib/dashboard/find-or-404";
import Link from "next/link";
import { cache } from "react";
import { DeleteTrackableButton } from "@/components/trackables/delete-trackable-button";
import { FirstLocationHelp } from "@/components/trackables/first-location-help";
import { BatteryIndicator, StatusIndicator } from "@/components/trackables/indicators";
import { TrackMap } from "@/components/trackables/maps";
import { ShareLinksPanel } from "@/components/share-links/share-links-panel";
import { ConnectDevicePanel } from "@/components/devices/connect-device-panel";
import { EventTimeline } from "@/components/trackables/event-timeline";
import { RangePicker } from "@/components/trackables/range-picker";
import { ExportForm } from "@/components/trackables/export-form";
import { ImportPanel } from "@/components/trackables/import-panel";
import { TrackableFormDialog } from "@/components/trackables/trackable-form-dialog";
import { TrackingToggle } from "@/components/trackables/tracking-toggle";
import { TripsPanel } from "@/components/trackables/trips-panel";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Badge, Card, ScrollTable, Time } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import { env } from "@/lib/config/env";
import { mapConfig } from "@/lib/config/map";
import { importChoices } from "@/lib/imports/choices";
import { formatCoord } from "@/lib/dashboard/format";
import { parseTimeRange } from "@/lib/dashboard/time-range";
import type { Location } from "@/lib/locations/schemas";
import { MAX_TRACK_POINTS, readTrack } from "@/lib/locations/track";
import { listShareLinks } from "@/lib/share-links/share-links";
import { listDeviceTokens } from "@/lib/devices/tokens";
import { SOURCE_LABELS } from "@/lib/devices/setup";
import { getTrackableStatuses } from "@/lib/trackables/status";
import { getTrackable } from "@/lib/trackables/trackables";
import { listEvents } from "@/lib/events/events";
import { listMapZones } from "@/lib/privacy-zones/privacy-zones";
import { listAllGeofences } from "@/lib/geofences/geofences";
import { listTrackableGeofences } from "@/lib/geofences/occupancy";
import { readTransitions } from "@/lib/events/transitions";
import { simplifyForDrawing } from "@/lib/locations/simplify";
import { readMotionPanel } from "@/lib/motion/dashboard";

type Props = {
  params: Promise<{ trackableId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const RECENT_ROWS = 20;

// Shared by the metadata and the page (one query per request).
const loadTrackable = cache(async (trackableId: string) => {
  const { ctx } = await requireSession();
  return findOr404(trackableId, async (id) => ({ trackable: await getTrackable({ ctx, id }) }));
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { trackable } = await loadTrackable((await params).trackableId);
  return { title: trackable.name };
}

export default async function TrackablePage({ params, searchParams }: Props) {
  const { ctx } = await requireSession();
  const { trackableId } = await params;
  const { trackable } = await loadTrackable(trackableId);
  const now = new Date();
  const query = await searchParams;
  const range = parseTimeRange(query, now);
  const tripId = typeof query.trip === "string" ? query.trip : undefined;
  const [track, statuses, shareLinks, deviceTokens, inside, events, fences, transitions, motion, zones] = await whileItExists(
    () =>
      Promise.all([
        readTrack({ ctx, trackableId, from: range.from, to: range.to }),
        getTrackableStatuses({ ctx, trackables: [trackable], now }),
        listShareLinks({ ctx, query: { trackableId, active: true, limit: 100 }, now }),
        listDeviceTokens({ ctx, trackableId, query: { limit: 100 } }),
        listTrackableGeofences({ ctx, trackableId, query: { limit: 100 } }),
        listEvents({ ctx, query: { trackableId, limit: RECENT_ROWS } }),
        listAllGeofences({ ctx }),
        readTransitions({ ctx, trackableId, from: range.from, to: range.to }),
        readMotionPanel({ ctx, trackableId, from: range.from, to: range.to, tripId }),
        listMapZones({ ctx, trackableId }),
      ]),
    () => getTrackable({ ctx, id: trackable.id }),
  );
  // The map draws a simplified line when the track is long; the table and the export keep every point.
  const drawn = simplifyForDrawing(track.points);
  const trackFences = fences.filter((g) => g.trackableIds === null || g.trackableIds.includes(trackable.id));
  const geofenceNames = new Map(fences.map((g) => [g.id, g.name]));
  const status = statuses.get(trackable.id)!;
  const threshold = env().BATTERY_LOW_THRESHOLD;
  const latest = trackable.lastLocation;
  const basePath = `/trackables/${trackable.id}`;
  const newestInRange = track.points.at(-1);
  const marker = newestInRange ?? latest;

  return (
    <div className="space-y-6">
      <div>
        <Link href="/trackables" className="text-sm font-medium text-slate-500 hover:text-slate-800">
          ← Trackables
        </Link>
        <header className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900">{trackable.name}</h1>
            <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2">
              <Badge data-testid="trackable-type">{trackable.type}</Badge>
              <StatusIndicator status={status.status} />
              {trackable.tracking === "paused" ? (
                <Badge color="yellow" data-testid="tracking-paused">
                  Tracking paused
                </Badge>
              ) : null}
              <span className="text-sm text-slate-600">
                {status.lastSeenAt ? (
                  <>
                    Last seen <Time value={status.lastSeenAt} relative />
                  </>
                ) : (
                  "Never seen"
                )}
              </span>
              {latest?.battery != null ? <BatteryIndicator level={latest.battery} threshold={threshold} /> : null}
              {latest ? (
                <span className="text-sm text-slate-600" data-testid="last-point-source">
                  Last point from {SOURCE_LABELS[latest.source]}, <Time value={latest.timestamp} relative />
                </span>
              ) : null}
            </div>
          </div>
          <div className="flex shrink-0 gap-2">
            <LiveRefresh scope="trackable" trackableId={trackable.id} />
            <TrackingToggle id={trackable.id} tracking={trackable.tracking} />
            <TrackableFormDialog mode="edit" trackable={{ id: trackable.id, name: trackable.name, type: trackable.type }} />
            <DeleteTrackableButton id={trackable.id} name={trackable.name} redirectTo="/trackables" size="md" />
          </div>
        </header>
      </div>

      {/* Each column as tall as its own content: the track's card never stretches to the side panels' height. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3 lg:items-start">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {!latest ? (
            <Card aria-labelledby="no-positions-heading" className="p-5">
              <h2 id="no-positions-heading" className="text-base font-semibold text-slate-900">
                No positions yet
              </h2>
              <p className="mt-1 mb-4 text-sm text-slate-600">Post a first position and its track appears here.</p>
              <FirstLocationHelp appUrl={env().APP_URL} trackableId={trackable.id} trackableName={trackable.name} />
            </Card>
          ) : (
            <Card aria-labelledby="track-heading" className="p-4 sm:p-5">
              <div className="mb-3 flex flex-col gap-3">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id="track-heading" className="text-base font-semibold text-slate-900">
                    Track
                  </h2>
                  <p className="text-sm text-slate-600" data-testid="track-point-count">
                    {track.points.length === 1 ? "1 point" : `${track.points.length.toLocaleString("en")} points`}{" "}
                    <span className="text-slate-500">
                      · <Time value={range.from} /> – {range.to ? <Time value={range.to} /> : "now"}
                    </span>
                  </p>
                </div>
                <RangePicker basePath={basePath} range={range} />
                {track.points.length > 0 ? <ExportForm trackableId={trackable.id} range={range} /> : null}
                {drawn.length < track.points.length ? (
                  <p className="text-xs text-slate-500" data-testid="track-simplified">
                    The map draws {drawn.length.toLocaleString("en")} of the {track.points.length.toLocaleString("en")} points (simplified
                    for drawing); the table and the download hold every point.
                  </p>
                ) : null}
                {track.truncated ? (
                  <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200 ring-inset" role="status">
                    Showing the latest {MAX_TRACK_POINTS.toLocaleString("en")} points of this range; narrow the range to see older ones.
                  </p>
                ) : null}
                {track.points.length === 0 ? (
                  <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset" role="status">
                    No positions in this range. The map shows the latest one, from <Time value={latest.timestamp} relative />.
                  </p>
                ) : null}
              </div>
              <div data-testid="track-map" data-point-count={track.points.length} data-drawn-count={drawn.length}>
                <TrackMap
                  key={`${range.preset}:${range.fromInput}:${range.toInput}`}
                  config={mapConfig()}
                  className="h-80 w-full sm:h-[28rem]"
                  // The live colour only when the highlighted point is the trackable's newest, not an old range's end.
                  online={status.status === "online" && marker?.id === latest.id}
                  points={drawn.map((p) => ({ latitude: p.latitude, longitude: p.longitude, at: p.timestamp }))}
                  fences={trackFences.map((g) => ({
                    id: g.id,
                    name: g.name,
                    latitude: g.latitude,
                    longitude: g.longitude,
                    radius: g.radius,
                    rings: g.geometry?.coordinates ?? null,
                  }))}
                  zones={zones}
                  transitions={transitions.map((t) => ({
                    id: t.id,
                    type: t.type,
                    fenceName: geofenceNames.get(t.geofenceId) ?? "a deleted geofence",
                    latitude: t.latitude,
                    longitude: t.longitude,
                    occurredAt: t.occurredAt,
                    note: t.reason && t.reason !== "crossing" ? t.reason.replaceAll("_", " ") : null,
                  }))}
                  latest={
                    marker
                      ? {
                          latitude: marker.latitude,
                          longitude: marker.longitude,
                          accuracy: marker.accuracy,
                          at: marker.timestamp,
                          name: trackable.name,
                        }
                      : null
                  }
                />
              </div>
            </Card>
          )}
          {latest ? (
            <TripsPanel
              {...motion}
              basePath={basePath}
              range={range}
              config={mapConfig()}
              name={trackable.name}
              geofenceNames={geofenceNames}
            />
          ) : null}
          <ImportPanel trackableId={trackable.id} choices={importChoices()} />
        </div>
        <div className="min-w-0 space-y-6">
          {latest ? (
            <Card aria-labelledby="latest-heading" className="p-5">
              <h2 id="latest-heading" className="text-base font-semibold text-slate-900">
                Latest position
              </h2>
              <LatestDetails location={latest} threshold={threshold} />
            </Card>
          ) : null}
          <EventTimeline inside={inside.data} events={events.data} geofenceNames={geofenceNames} trackableId={trackable.id} />
          <ConnectDevicePanel trackableId={trackable.id} appUrl={env().APP_URL} initialTokens={deviceTokens.data} />
          <ShareLinksPanel trackableId={trackable.id} initialLinks={shareLinks.data} />
        </div>
      </div>

      {track.points.length > 0 ? (
        <Card aria-labelledby="recent-heading" className="overflow-hidden">
          <div className="flex flex-wrap items-baseline justify-between gap-2 px-4 pt-4 sm:px-5">
            <h2 id="recent-heading" className="text-base font-semibold text-slate-900">
              Recent points
            </h2>
            <p className="text-xs text-slate-500">
              Newest first, {Math.min(RECENT_ROWS, track.points.length)} of {track.points.length.toLocaleString("en")} in this range; every
              point through <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-700">GET /api/v1/trackables/{"{id}"}/locations</code>.
            </p>
          </div>
          <ScrollTable label="Recent locations" className="mt-3">
            <table className="min-w-full divide-y divide-slate-200 text-sm" aria-labelledby="recent-heading">
              <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-4 py-2 sm:px-5">Time</th>
                  <th scope="col" className="hidden px-4 py-2 sm:table-cell">Position</th>
                  <th scope="col" className="hidden px-4 py-2 sm:table-cell">Accuracy</th>
                  <th scope="col" className="hidden px-4 py-2 md:table-cell">Speed</th>
                  <th scope="col" className="px-4 py-2">Battery</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 tabular-nums">
                {track.points
                  .slice(-RECENT_ROWS)
                  .reverse()
                  .map((p) => (
                    <tr key={p.id} data-testid="recent-point">
                      <td className="px-4 py-2 whitespace-nowrap text-slate-700 sm:px-5">
                        <Time value={p.timestamp} seconds />
                        <span className="block font-mono text-xs text-slate-500 sm:hidden">
                          {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)}
                        </span>
                      </td>
                      <td className="hidden px-4 py-2 font-mono text-xs whitespace-nowrap text-slate-700 sm:table-cell">
                        {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)}
                      </td>
                      <td className="hidden px-4 py-2 text-slate-600 sm:table-cell">{p.accuracy != null ? `±${Math.round(p.accuracy)} m` : "—"}</td>
                      <td className="hidden px-4 py-2 text-slate-600 md:table-cell">{p.speed != null ? formatSpeed(p.speed) : "—"}</td>
                      <td className="px-4 py-2">
                        <BatteryIndicator level={p.battery} threshold={threshold} />
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </ScrollTable>
        </Card>
      ) : null}
  
    </div>
  );
}

function LatestDetails({ location, threshold }: { location: Location; threshold: number }) {
  const rows: [string, React.ReactNode][] = [
    [
      "Recorded",
      <>
        <Time value={location.timestamp} seconds />
        <Time className="block text-xs text-slate-500" value={location.timestamp} relative />
      </>,
    ],
    ["Latitude", <span key="lat" className="font-mono">{formatCoord(location.latitude)}</span>],
    ["Longitude", <span key="lon" className="font-mono">{formatCoord(location.longitude)}</span>],
    ["Accuracy", location.accuracy != null ? `±${location.accuracy.toLocaleString("en", { maximumFractionDigits: 1 })} m` : "Not reported"],
    ["Speed", location.speed != null ? formatSpeed(location.speed) : "Not reported"],
    ["Heading", location.heading != null ? formatHeading(location.heading) : "Not reported"],
    ["Altitude", location.altitude != null ? `${location.altitude.toLocaleString("en", { maximumFractionDigits: 1 })} m` : "Not reported"],
    ["Battery", location.battery != null ? <BatteryIndicator key="b" level={location.battery} threshold={threshold} /> : "Not reported"],
    ["Received", <Time key="r" value={location.receivedAt} seconds />],
    ["Source", <span key="s" data-testid="latest-source">{SOURCE_LABELS[location.source]}</span>],
  ];
  return (
    <dl className="mt-3 divide-y divide-slate-100 text-sm" data-testid="latest-details">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 py-2">
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-right text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
const formatHeading = (deg: number) => `${Math.round(deg)}° ${COMPASS[Math.round(deg / 45) % 8]}`;
const formatSpeed = (ms: number) => `${ms.toLocaleString("en", { maximumFractionDigits: 1 })} m/s (${Math.round(ms * 3.6)} km/h)`;
