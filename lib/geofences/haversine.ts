// Great-circle distance on the contract's sphere, in a module of its own so shapes.ts and evaluation.ts share it.

/** Mean Earth radius (IUGG), the sphere "inside" is decided on (the contract's R). */
export const EARTH_RADIUS_M = 6_371_008.8;

export interface LatLon {
  latitude: number;
  longitude: number;
}

const RAD = Math.PI / 180;

/** Great-circle distance in metres on the sphere of radius EARTH_RADIUS_M (haversine formula). */
export function haversineMeters(a: LatLon, b: LatLon): number {
  const phi1 = a.latitude * RAD;
  const phi2 = b.latitude * RAD;
  const sinDPhi = Math.sin((phi2 - phi1) / 2);
  const sinDLambda = Math.sin(((b.longitude - a.longitude) * RAD) / 2);
  const h = sinDPhi * sinDPhi + Math.cos(phi1) * Math.cos(phi2) * sinDLambda * sinDLambda;
  // Rounding can push h a hair above 1 for antipodal points.
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, h)));
}
