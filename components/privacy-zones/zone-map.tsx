"use client";
// The privacy zones page's map: every zone, framed as circular fences would be.
import BaseMap from "@/components/map/base-map";
import { fenceBoundsPoints } from "@/components/map/fences";
import { PrivacyZoneShapes, type MapZone } from "@/components/map/privacy-zones";
import type { MapConfig } from "@/lib/config/map";

export type { MapZone };

export default function PrivacyZoneMap({ config, zones }: { config: MapConfig; zones: MapZone[] }) {
  const corners = fenceBoundsPoints(zones.map((z) => ({ ...z, rings: null })));
  return (
    <BaseMap config={config} bounds={corners.length > 0 ? corners : undefined} label="Map of privacy zones" className="h-80 w-full">
      <PrivacyZoneShapes zones={zones} />
    </BaseMap>
  );
}
