import simplify from "simplify-js";

/** Tracks up to this many points are drawn whole; longer ones are simplified. */
export const SIMPLIFY_ABOVE = 2000;
/** The most points a simplified track keeps (the tolerance grows until it fits). */
export const MAX_DRAWN_POINTS = 5000;
// A map that frames the track is ~1,000 px across: 1/4,000 of the extent stays under a pixel up to 4× zoom-in.
const EXTENT_FRACTION = 1 / 4000;

interface LatLon {
  latitude: number;
  longitude: number;
}

/**
 * The points of a track to draw, oldest first: all of them up to SIMPLIFY_ABOVE, else Douglas–Peucker (simplify-js)
 * at a tolerance tied to the track's extent, in a plane where a degree of longitude is scaled by cos(latitude) so
 * the tolerance is the same distance in every direction. The first and last points always stay; the kept points are
 * the input objects themselves (their times and ids come along).
 */
export function simplifyForDrawing<P extends LatLon>(points: readonly P[]): P[] {
  if (points.length <= SIMPLIFY_ABOVE) return [...points];
  const meanLat = points.reduce((s, p) => s + p.latitude, 0) / points.length;
  const k = Math.cos((meanLat * Math.PI) / 180);
  const plane = points.map((p, i) => ({ x: p.longitude * k, y: p.latitude, i }));
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const q of plane) {
    minX = Math.min(minX, q.x);
    maxX = Math.max(maxX, q.x);
    minY = Math.min(minY, q.y);
    maxY = Math.max(maxY, q.y);
  }
  const extent = Math.hypot(maxX - minX, maxY - minY);
  if (extent === 0) return [points[0]!, points.at(-1)!];
  let tolerance = extent * EXTENT_FRACTION;
  for (;;) {
    const kept = simplify(plane, tolerance, false) as typeof plane;
    if (kept.length <= MAX_DRAWN_POINTS) return kept.map((q) => points[q.i]!);
    tolerance *= 1.25;
  }
}
