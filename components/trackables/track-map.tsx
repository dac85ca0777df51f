"use client";
// A trackable's track: the path as a line with a small dot per point, the newest point as the marker, and its
// accuracy circle when the device reported one.
import { Circle, CircleMarker, Marker, Polyline, Tooltip } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import { dotIcon } from "@/components/map/markers";
import type { MapConfig } from "@/lib/config/map";

export interface TrackPoint {
  latitude: number;
  longitude: number;
  time: string;
}

// Tooltips on every dot cost a React tree each; past this many points the line tells the story on its own.
const DOT_TOOLTIPS_UP_TO = 500;

export default function TrackMap({
  config,
  points,
  latest,
  online,
  className,
}: {
  config: MapConfig;
  /** Oldest first; the newest is drawn as the marker (`latest`), the others as small dots. */
  points: TrackPoint[];
  latest: (TrackPoint & { accuracy: number | null; name: string }) | null;
  online: boolean;
  className?: string;
}) {
  const line = points.map((p) => [p.latitude, p.longitude] as [number, number]);
  const dots = points.slice(0, -1);
  const all = latest ? [...line, [latest.latitude, latest.longitude] as [number, number]] : line;
  return (
    <BaseMap config={config} bounds={all.length > 0 ? all : undefined} label="Track map" className={className}>
      {line.length > 1 ? <Polyline positions={line} pathOptions={{ color: "#4f46e5", weight: 3, opacity: 0.8 }} /> : null}
      {dots.map((p, i) => (
        <CircleMarker
          key={`${i}-${p.time}`}
          center={[p.latitude, p.longitude]}
          radius={3}
          pathOptions={{ color: "#ffffff", weight: 1, fillColor: "#4f46e5", fillOpacity: 1 }}
        >
          {dots.length <= DOT_TOOLTIPS_UP_TO ? <Tooltip>{p.time}</Tooltip> : null}
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
            <span className="block text-slate-600">{latest.time}</span>
          </Tooltip>
        </Marker>
      ) : null}
    </BaseMap>
  );
}
