"use client";
// Leaflet touches `window` at import time: the editor's map is loaded in the browser only.
import dynamic from "next/dynamic";

export const GeofenceMap = dynamic(() => import("./geofence-map"), {
  ssr: false,
  loading: () => <div className="h-full w-full animate-pulse rounded-lg bg-slate-100" aria-busy="true" />,
});
export type { Draft, GeofenceMapProps, MapGeofence, MapTrackable, Rings, Shape } from "./geofence-map";
