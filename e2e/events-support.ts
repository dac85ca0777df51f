import { expect, type Page } from "@playwright/test";
import { apiClient } from "./support/api";

// Shared by the geofence, webhook and delivery specs.

/**
 * Collects console errors and uncaught page errors, except the tile requests that fail by design (the suite points
 * tiles at the closed port 9). Call `expectNone()` at the end of the test.
 */
export function watchConsole(page: Page) {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location().url ?? "";
    if (where.startsWith("http://127.0.0.1:9/") || /127\.0\.0\.1:9\//.test(msg.text())) return;
    // Chromium asks for /favicon.ico on its own; the app declares app/icon.svg instead.
    if (where.endsWith("/favicon.ico")) return;
    // The sidebar prefetches every nav page; pages built on other branches 404 until they are merged.
    if (/\/(trackables|account)\?_rsc=/.test(where) && msg.text().includes("404")) return;
    errors.push(`${msg.text()} (${where})`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return { expectNone: () => expect(errors, errors.join("\n")).toEqual([]) };
}

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
