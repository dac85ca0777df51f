"use client";
// The one Leaflet map of the app: tiles from the operator's configuration, and a plain background when they cannot
// load (offline installs), so markers and circles always render. Import it from a client component that is itself
// loaded in the browser only (next/dynamic with ssr: false, or clientOnlyMap): Leaflet touches `window` at import time.
import "leaflet/dist/leaflet.css";
import type { LatLngBoundsExpression, LatLngExpression, Map as LeafletMap } from "leaflet";
import type { ReactNode, Ref } from "react";
import { MapContainer, TileLayer } from "react-leaflet";
import type { MapConfig } from "@/lib/config/map";
import { MAP_BOX } from "./client-only";

export interface BaseMapProps {
  config: MapConfig;
  center?: LatLngExpression;
  zoom?: number;
  bounds?: LatLngBoundsExpression;
  className?: string;
  children?: ReactNode;
  ref?: Ref<LeafletMap>;
  /** Accessible name of the map region. */
  label: string;
}

export default function BaseMap({ config, center = [20, 0], zoom = 2, bounds, className, children, ref, label }: BaseMapProps) {
  return (
    <div role="region" aria-label={label} className={className ?? MAP_BOX}>
      <MapContainer
        ref={ref}
        center={bounds ? undefined : center}
        zoom={bounds ? undefined : zoom}
        bounds={bounds}
        boundsOptions={{ padding: [32, 32], maxZoom: 16 }}
        scrollWheelZoom
        worldCopyJump
        className="h-full w-full rounded-lg bg-slate-100"
      >
        <TileLayer url={config.tileUrl} attribution={config.attribution} />
        {children}
      </MapContainer>
    </div>
  );
}
