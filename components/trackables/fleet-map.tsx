"use client";
// The trackables list's map: every trackable's latest position, fitted to them all; a marker opens its page.
import { useRouter } from "next/navigation";
import { Marker, Tooltip } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import { dotIcon } from "@/components/map/markers";
import type { MapConfig } from "@/lib/config/map";
import type { DeviceStatus } from "@/lib/trackables/status";

export interface FleetMapPoint {
  id: string;
  name: string;
  type: string;
  latitude: number;
  longitude: number;
  status: DeviceStatus;
  lastSeen: string;
  lastSeenExact: string;
}

export const STATUS_COLOR: Record<DeviceStatus, string> = { online: "#059669", offline: "#64748b", never: "#94a3b8" };

export default function FleetMap({ config, points, className }: { config: MapConfig; points: FleetMapPoint[]; className?: string }) {
  const router = useRouter();
  const bounds = points.length > 0 ? points.map((p) => [p.latitude, p.longitude] as [number, number]) : undefined;
  return (
    <BaseMap config={config} bounds={bounds} label="Map of trackables" className={className}>
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
            <span className="block text-slate-600" title={p.lastSeenExact}>
              Last seen {p.lastSeen}
            </span>
          </Tooltip>
        </Marker>
      ))}
    </BaseMap>
  );
}
