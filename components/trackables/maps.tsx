"use client";
// Leaflet touches `window` at import time: the trackables maps load in the browser only.
import dynamic from "next/dynamic";

const loading = () => <div className="h-full min-h-64 w-full animate-pulse rounded-lg bg-slate-100" aria-busy="true" />;

export const FleetMap = dynamic(() => import("./fleet-map"), { ssr: false, loading });
export const TrackMap = dynamic(() => import("./track-map"), { ssr: false, loading });
