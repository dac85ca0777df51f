import { expect } from "@playwright/test";
import { apiClient } from "./support/api";

// Shared by the geofence, webhook and delivery specs.
export { watchConsole } from "./support/console";

export type Api = ReturnType<typeof apiClient>;

export async function createGeofenceViaApi(api: Api, body: Record<string, unknown>): Promise<{ id: string; name: string }> {
  const res = await api.post("/geofences", { latitude: 52.52, longitude: 13.405, radius: 200, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Metres per screen pixel of Web Mercator at a latitude and zoom (256-px tiles). */
export const metresPerPixel = (lat: number, zoom: number) => (156543.03392 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;

/** A point `metres` north of a latitude (for locations just inside or outside a geofence). */
export const northOf = (lat: number, metres: number) => lat + (metres / 6_371_008.8) * (180 / Math.PI);
