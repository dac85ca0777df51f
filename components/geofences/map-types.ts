// The shapes the geofence editor's map draws and edits, as its form and tools pass them around.

export interface Shape {
  latitude: number;
  longitude: number;
  radius: number;
}

/** A polygon's rings as GeoJSON [longitude, latitude] positions, each ring closed; the first is the outer ring. */
export type Rings = [number, number][][];

/** The shape being edited: a circle, or a polygon's rings. */
export type Draft = ({ kind: "circle" } & Shape) | { kind: "polygon"; rings: Rings };

export interface MapGeofence extends Shape {
  id: string;
  name: string;
  /** A polygon's rings as GeoJSON [lon, lat] positions; null for a circle. */
  rings: Rings | null;
}

export interface MapTrackable {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}
