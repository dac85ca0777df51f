"use client";
// Leaflet touches `window` at import time: the trackables maps load in the browser only, in boxes of their own size.
import { clientOnlyMap } from "@/components/map/client-only";

export const FleetMap = clientOnlyMap(() => import("./fleet-map"));
export const TrackMap = clientOnlyMap(() => import("./track-map"));
