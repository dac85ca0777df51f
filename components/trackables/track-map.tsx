"use client";
// A trackable's track: the path as a line with a small dot per drawn point, the newest point as the marker (with its
// accuracy circle), the geofences that apply to it, its entries and exits marked where they happened, and a playback
// control that moves a marker along the track in time.
import "@/components/map/marks.css";
import L from "leaflet";
import { Circle, CircleMarker, Marker, Polyline, Tooltip } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import { FenceShapes, type MapFence } from "@/components/map/fences";
import { PrivacyZoneShapes, type MapZone } from "@/components/map/privacy-zones";
import { dotIcon } from "@/components/map/markers";
import type { MapConfig } from "@/lib/config/map";
import { localTime, PlaybackControls, usePlayback, type TrackPoint } from "./playback";

export type { TrackPoint } from "./playback";

export interface TrackTransition {
  id: string;
  type: "geofence.entry" | "geofence.exit";
  fenceName: string;
  latitude: number;
  longitude: number;
  occurredAt: string;
  /** Why a synthetic transition happened (e.g. "geofence deleted"); null for a crossing. */
  note: string | null;
}

// Tooltips on every dot cost a React tree each; past this many points the line tells the story on its own.
const DOT_TOOLTIPS_UP_TO = 500;


export default function TrackMap({
  config,
  points,
  latest,
  online,
  fences = [],
  zones = [],
  transitions = [],
  className,
}: {
  config: MapConfig;
  /** The points to draw, oldest first (a long track arrives simplified); the newest is drawn as the marker (`latest`). */
  points: TrackPoint[];
  latest: (TrackPoint & { accuracy: number | null; name: string }) | null;
  online: boolean;
  fences?: MapFence[];
  /** The privacy zones that apply to the trackable, drawn as context (not framed). */
  zones?: MapZone[];
  transitions?: TrackTransition[];
  className?: string;
}) {
  const line = points.map((p) => [p.latitude, p.longitude] as [number, number]);
  const dots = points.slice(0, -1);
  const all = latest ? [...line, [latest.latitude, latest.longitude] as [number, number]] : line;
  const playback = usePlayback(points);
  return (
    <div>
      <BaseMap config={config} bounds={all.length > 0 ? all : undefined} label="Track map" className={className}>
        <FenceShapes fences={fences} />
        <PrivacyZoneShapes zones={zones} />
        {line.length > 1 ? <Polyline positions={line} pathOptions={{ color: "#4f46e5", weight: 3, opacity: 0.8 }} /> : null}
        {dots.map((p, i) => (
          <CircleMarker
            key={`${i}-${p.at}`}
            center={[p.latitude, p.longitude]}
            radius={3}
            pathOptions={{ color: "#ffffff", weight: 1, fillColor: "#4f46e5", fillOpacity: 1 }}
          >
            {dots.length <= DOT_TOOLTIPS_UP_TO ? <Tooltip>{localTime(p.at)}</Tooltip> : null}
          </CircleMarker>
        ))}
        {latest?.accuracy ? (
          <Circle
            center={[latest.latitude, latest.longitude]}
            radius={latest.accuracy}
            pathOptions={{ color: "#4f46e5", weight: 1, fillColor: "#6366f1", fillOpacity: 0.12 }}
            interactive={false}
          />
        ) : null}
        {latest ? (
          <Marker
            position={[latest.latitude, latest.longitude]}
            icon={dotIcon({ color: online ? "#059669" : "#4f46e5", pulse: online })}
            title={`${latest.name}: latest position`}
            zIndexOffset={1000}
          >
            <Tooltip direction="top" offset={[0, -10]}>
              <span className="block font-semibold">Latest position</span>
              <span className="block text-slate-600">{localTime(latest.at)}</span>
            </Tooltip>
          </Marker>
        ) : null}
        {transitions.map((t) => (
          <TransitionMark key={t.id} transition={t} />
        ))}
        {playback.position ? (
          <Marker position={playback.position} icon={PLAYBACK_ICON} title="Playback position" zIndexOffset={2000} interactive={false} keyboard={false} />
        ) : null}
      </BaseMap>
      {points.length > 1 ? <PlaybackControls playback={playback} /> : null}
    </div>
  );
}

const PLAYBACK_ICON = L.divIcon({ className: "fl-playback", html: "<span></span>", iconSize: [22, 22], iconAnchor: [11, 11] });
const TRANSITION_ICONS = {
  "geofence.entry": L.divIcon({ className: "fl-transition fl-transition-entry", html: '<span aria-hidden="true">→</span>', iconSize: [20, 20], iconAnchor: [10, 10] }),
  "geofence.exit": L.divIcon({ className: "fl-transition fl-transition-exit", html: '<span aria-hidden="true">←</span>', iconSize: [20, 20], iconAnchor: [10, 10] }),
};

function TransitionMark({ transition: t }: { transition: TrackTransition }) {
  const verb = t.type === "geofence.entry" ? "Entered" : "Left";
  return (
    <Marker position={[t.latitude, t.longitude]} icon={TRANSITION_ICONS[t.type]} title={`${verb} ${t.fenceName}`} zIndexOffset={1500}>
      <Tooltip direction="top" offset={[0, -10]}>
        <span className="block font-semibold">
          {verb} {t.fenceName}
        </span>
        <span className="block text-slate-600">
          <time dateTime={t.occurredAt} title={t.occurredAt}>
            {localTime(t.occurredAt)}
          </time>
          {t.note ? ` · ${t.note}` : null}
        </span>
      </Tooltip>
    </Marker>
  );
}
