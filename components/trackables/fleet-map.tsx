"use client";
// The trackables list's map: every trackable's latest position (labelled, clustered where markers overlap) and the
// account's geofences, fitted to them all, with its privacy zones as context; a marker opens its trackable's page.
import "leaflet.markercluster/dist/MarkerCluster.css";
import "@/components/map/marks.css";
import L from "leaflet";
import { useRouter } from "next/navigation";
import { Marker, Tooltip } from "react-leaflet";
import MarkerClusterGroup from "react-leaflet-cluster";
import BaseMap from "@/components/map/base-map";
import { FenceShapes, fenceBoundsPoints, type MapFence } from "@/components/map/fences";
import { dotIcon, escapeHtml } from "@/components/map/markers";
import { PrivacyZoneShapes, type MapZone } from "@/components/map/privacy-zones";
import type { MapConfig } from "@/lib/config/map";
import type { DeviceStatus } from "@/lib/trackables/status";
import { Time } from "@/components/ui/time";

export interface FleetMapPoint {
  id: string;
  name: string;
  type: string;
  latitude: number;
  longitude: number;
  status: DeviceStatus;
  /** ISO instant, shown relative and in the viewer's zone on hover. */
  lastSeenAt: string;
}

export const STATUS_COLOR: Record<DeviceStatus, string> = { online: "#059669", offline: "#64748b", never: "#94a3b8" };

/**
 * A cluster: how many trackables it holds, as a count in a disc, naming them on hover and to screen readers (CSS
 * classes only: nothing for the CSP to refuse).
 */
function clusterIcon(cluster: { getChildCount(): number; getAllChildMarkers(): L.Marker[] }): L.DivIcon {
  const n = cluster.getChildCount();
  const names = cluster
    .getAllChildMarkers()
    .map((m) => m.options.title ?? "")
    .filter(Boolean)
    .sort((a, b) => a.localeCompare(b));
  const shown = names.length > 8 ? `${names.slice(0, 8).join(", ")} and ${names.length - 8} more` : names.join(", ");
  return L.divIcon({
    className: "fl-cluster",
    html: `<span title="${escapeHtml(shown)}" aria-label="${n} trackables: ${escapeHtml(shown)}">${n}</span>`,
    iconSize: [36, 36],
    iconAnchor: [18, 18],
  });
}

export default function FleetMap({
  config,
  points,
  fences = [],
  zones = [],
  className,
}: {
  config: MapConfig;
  points: FleetMapPoint[];
  fences?: MapFence[];
  /** The account's privacy zones, drawn as context (not framed). */
  zones?: MapZone[];
  className?: string;
}) {
  const router = useRouter();
  const all = [...points.map((p) => [p.latitude, p.longitude] as [number, number]), ...fenceBoundsPoints(fences)];
  const bounds = all.length > 0 ? all : undefined;
  return (
    <BaseMap config={config} bounds={bounds} label="Map of trackables" className={className}>
      <FenceShapes fences={fences} />
      <PrivacyZoneShapes zones={zones} />
      <MarkerClusterGroup
        iconCreateFunction={clusterIcon}
        // Markers carry labels ~100 px wide: cluster those closer than that, never at street level.
        maxClusterRadius={48}
        disableClusteringAtZoom={19}
        showCoverageOnHover={false}
        spiderfyOnMaxZoom
        chunkedLoading
      >
      {points.map((p) => (
        <Marker
          key={p.id}
          position={[p.latitude, p.longitude]}
          icon={dotIcon({ color: STATUS_COLOR[p.status], label: p.name, pulse: p.status === "online" })}
          title={p.name}
          eventHandlers={{ click: () => router.push(`/trackables/${p.id}`) }}
        >
          <Tooltip direction="top" offset={[0, -10]}>
            <span className="block font-semibold">{p.name}</span>
            <span className="block text-slate-600">
              {p.type} · {p.status === "online" ? "online" : "offline"}
            </span>
            <span className="block text-slate-600">
              Last seen <Time value={p.lastSeenAt} relative />
            </span>
          </Tooltip>
        </Marker>
      ))}
      </MarkerClusterGroup>
    </BaseMap>
  );
}
