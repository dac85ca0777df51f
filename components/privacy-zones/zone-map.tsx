"use client";
// Privacy zones on the map, in a style of their own (red, hatched by a dense dash) so they are never taken for geofences.
import { Circle, Tooltip } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import { fenceBoundsPoints } from "@/components/map/fences";
import type { MapConfig } from "@/lib/config/map";

export interface MapZone {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radius: number;
  mode: "drop" | "blur";
}

const STYLE = { color: "#b91c1c", weight: 2, fillColor: "#ef4444", fillOpacity: 0.18, dashArray: "2 4" };

export default function PrivacyZoneMap({ config, zones }: { config: MapConfig; zones: MapZone[] }) {
  // A zone is framed as a circular fence would be.
  const corners = fenceBoundsPoints(zones.map((z) => ({ ...z, rings: null })));
  return (
    <BaseMap config={config} bounds={corners.length > 0 ? corners : undefined} label="Map of privacy zones" className="h-80 w-full">
      {zones.map((z) => (
        <Circle key={z.id} center={[z.latitude, z.longitude]} radius={z.radius} pathOptions={STYLE} className="fl-privacy-zone">
          <Tooltip direction="center">{`${z.name} (${z.mode})`}</Tooltip>
        </Circle>
      ))}
    </BaseMap>
  );
}
