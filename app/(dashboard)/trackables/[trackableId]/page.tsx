import type { Metadata } from "next";
import { findOr404, whileItExists } from "@/lib/dashboard/find-or-404";
import Link from "next/link";
import { cache } from "react";
import { LatestDetails } from "@/components/trackables/latest-details";
import { RecentPoints } from "@/components/trackables/recent-points";
import { TrackCard } from "@/components/trackables/track-card";
import { TrackableHeader } from "@/components/trackables/trackable-header";
import { ShareLinksPanel } from "@/components/share-links/share-links-panel";
import { ConnectDevicePanel } from "@/components/devices/connect-device-panel";
import { EventTimeline } from "@/components/trackables/event-timeline";
import { ImportPanel } from "@/components/trackables/import-panel";
import { TripsPanel } from "@/components/trackables/trips-panel";
import { Card } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/teams/roles";
import { env } from "@/lib/config/env";
import { mapConfig } from "@/lib/config/map";
import { importChoices } from "@/lib/imports/choices";
import { parseTimeRange } from "@/lib/dashboard/time-range";
import { readTrack } from "@/lib/locations/track";
import { listShareLinks } from "@/lib/share-links/share-links";
import { listDeviceTokens } from "@/lib/devices/tokens";
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
  const { ctx } = await requireSession({ permission: "workspace.read" });
  return findOr404(trackableId, async (id) => ({ trackable: await getTrackable({ ctx, id }) }));
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { trackable } = await loadTrackable((await params).trackableId);
  return { title: trackable.name };
}

export default async function TrackablePage({ params, searchParams }: Props) {
  const { ctx, role } = await requireSession({ permission: "workspace.read" });
  const { trackableId } = await params;
  const { trackable } = await loadTrackable(trackableId);
  const now = new Date();
  const query = await searchParams;
  const range = parseTimeRange(query, now);
  const one = (key: string) => (typeof query[key] === "string" ? query[key] : undefined);
  const place = { trip: one("trip"), tripsAfter: one("tripsAfter"), stopsAfter: one("stopsAfter") };
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
        readMotionPanel({ ctx, trackableId, from: range.from, to: range.to, tripId: place.trip, tripsCursor: place.tripsAfter, stopsCursor: place.stopsAfter }),
        listMapZones({ ctx, trackableId }),
      ]),
    () => getTrackable({ ctx, id: trackable.id }),
  );
  // The map draws a simplified line when the track is long; the table and the export keep every point.
  const drawn = simplifyForDrawing(track.points);
  const geofenceNames = new Map(fences.map((g) => [g.id, g.name]));
  const status = statuses.get(trackable.id)!;
  const threshold = env().BATTERY_LOW_THRESHOLD;
  const latest = trackable.lastLocation;
  const basePath = `/trackables/${trackable.id}`;

  return (
    <div className="space-y-6">
      <div>
        <Link href="/trackables" className="text-sm font-medium text-slate-500 hover:text-slate-800">
          ← Trackables
        </Link>
        <TrackableHeader trackable={trackable} status={status} latest={latest} threshold={threshold} canWrite={can(role, "trackables.write")} />
      </div>

      {/* Each column as tall as its own content: the track's card never stretches to the side panels' height. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3 lg:items-start">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <TrackCard
            trackableId={trackable.id}
            trackableName={trackable.name}
            appUrl={env().APP_URL}
            config={mapConfig()}
            latest={latest}
            points={track.points}
            drawn={drawn}
            truncated={track.truncated}
            range={range}
            basePath={basePath}
            online={status.status === "online"}
            fences={fences
              .filter((g) => g.trackableIds === null || g.trackableIds.includes(trackable.id))
              .map((g) => ({ id: g.id, name: g.name, latitude: g.latitude, longitude: g.longitude, radius: g.radius, rings: g.geometry?.coordinates ?? null }))}
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
          />
          {latest ? (
            <TripsPanel panel={motion} place={place} basePath={basePath} range={range} config={mapConfig()} name={trackable.name} geofenceNames={geofenceNames} />
          ) : null}
          {can(role, "imports.write") ? <ImportPanel trackableId={trackable.id} choices={importChoices()} /> : null}
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
          {/* A viewer sees neither device tokens nor share links: each is a way into the workspace's data. */}
          {can(role, "deviceTokens.manage") ? <ConnectDevicePanel trackableId={trackable.id} appUrl={env().APP_URL} initialTokens={deviceTokens.data} /> : null}
          {can(role, "shareLinks.manage") ? <ShareLinksPanel trackableId={trackable.id} initialLinks={shareLinks.data} /> : null}
        </div>
      </div>

      <RecentPoints points={track.points} rows={RECENT_ROWS} threshold={threshold} />
    </div>
  );
}
