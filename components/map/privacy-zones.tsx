"use client";
// Privacy zones drawn on a map in a style of their own (red, hatched by a dense dash) so they are never taken for
// geofences: on the privacy zones page, and as context on the fleet and track maps.
import { Circle, Tooltip } from "react-leaflet";

export interface MapZone {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radius: number;
  mode: "drop" | "blur";
}

const STYLE = { color: "#b91c1c", weight: 2, fillColor: "#ef4444", fillOpacity: 0.18, dashArray: "2 4" };

export function PrivacyZoneShapes({ zones }: { zones: readonly MapZone[] }) {
  return (
    <>
      {zones.map((z) => (
        <Circle key={z.id} center={[z.latitude, z.longitude]} radius={z.radius} pathOptions={STYLE} className="fl-privacy-zone">
          <Tooltip direction="center">{`Privacy zone ${z.name} (${z.mode})`}</Tooltip>
        </Circle>
      ))}
    </>
  );
}
