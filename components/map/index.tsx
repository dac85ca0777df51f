"use client";
// Leaflet touches `window` at import time: every map is loaded in the browser only.
import dynamic from "next/dynamic";

export const BaseMap = dynamic(() => import("./base-map"), {
  ssr: false,
  loading: () => <div className="h-full min-h-64 w-full animate-pulse rounded-lg bg-slate-100" aria-busy="true" />,
});
export type { BaseMapProps } from "./base-map";
