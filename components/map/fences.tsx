"use client";
// Geofences drawn read-only on a map (the fleet map, a track): circles and polygons with their names on hover.
import { Circle, Polygon, Tooltip } from "react-leaflet";

export interface MapFence {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radius: number;
  /** A polygon's rings as GeoJSON [lon, lat] positions; null for a circle. */
  rings: [number, number][][] | null;
}

const STYLE = { color: "#0f766e", weight: 1.5, fillColor: "#14b8a6", fillOpacity: 0.1, dashArray: "4 3" };
const EARTH_R = 6_371_000;

export function FenceShapes({ fences }: { fences: MapFence[] }) {
  return (
    <>
      {fences.map((f) => {
        const label = (
          <Tooltip direction="center" className="fl-fence-label">
            {f.name}
          </Tooltip>
        );
        return f.rings ? (
          <Polygon
            key={f.id}
            positions={f.rings.map((ring) => ring.map(([lon, lat]) => [lat, lon] as [number, number]))}
            pathOptions={STYLE}
            // A Leaflet option read once, when the path is made (pathOptions only restyle it).
            className="fl-fence"
            bubblingMouseEvents={false}
          >
            {label}
          </Polygon>
        ) : (
          <Circle key={f.id} center={[f.latitude, f.longitude]} radius={f.radius} pathOptions={STYLE} className="fl-fence" bubblingMouseEvents={false}>
            {label}
          </Circle>
        );
      })}
    </>
  );
}

/** The corners of the box around each fence (a circle's north-east and south-west, a polygon's outer ring), for fitting. */
export function fenceBoundsPoints(fences: MapFence[]): [number, number][] {
  const out: [number, number][] = [];
  for (const f of fences) {
    if (f.rings) {
      for (const [lon, lat] of f.rings[0] ?? []) out.push([lat, lon]);
      continue;
    }
    const dLat = (f.radius / EARTH_R) * (180 / Math.PI);
    const dLon = dLat / Math.max(0.01, Math.cos((f.latitude * Math.PI) / 180));
    out.push([f.latitude - dLat, f.longitude - dLon], [f.latitude + dLat, f.longitude + dLon]);
  }
  return out;
}
