"use client";

import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useMemo, useRef } from "react";
import { Circle, MapContainer, Marker, TileLayer, ZoomControl, useMap } from "react-leaflet";
import type { PublicLocation } from "@/lib/share-links/schemas";

const TILE_URL = process.env.NEXT_PUBLIC_MAP_TILE_URL || "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png";
const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
const WORLD: [number, number] = [20, 0];
const STREET_ZOOM = 15;

/** The marker: a dot with a halo, carrying its coordinates for tests and assistive tools. */
function markerIcon(lat: number, lon: number): L.DivIcon {
  return L.divIcon({
    className: "", // no default white square
    iconSize: [28, 28],
    iconAnchor: [14, 14],
    html:
      `<span data-testid="share-marker" data-lat="${lat}" data-lon="${lon}" role="img" aria-label="Current position" ` +
      `class="relative flex h-7 w-7 items-center justify-center">` +
      `<span class="absolute inline-flex h-full w-full animate-ping rounded-full bg-sky-400 opacity-40"></span>` +
      `<span class="relative inline-flex h-4 w-4 rounded-full border-[3px] border-white bg-sky-600 shadow-md"></span>` +
      `</span>`,
  });
}

/** Centres on the first position, then pans only when the marker leaves the view (a user's pan or zoom is kept). */
function Follow({ lat, lon }: { lat: number | null; lon: number | null }) {
  const map = useMap();
  const placed = useRef(false);
  useEffect(() => {
    if (lat === null || lon === null) return;
    const here = L.latLng(lat, lon);
    if (!placed.current) {
      placed.current = true;
      map.setView(here, STREET_ZOOM, { animate: false });
    } else if (!map.getBounds().pad(-0.1).contains(here)) {
      map.panTo(here);
    }
  }, [map, lat, lon]);
  return null;
}

export default function ShareMap({ location }: { location: PublicLocation | null }) {
  const lat = location?.latitude ?? null;
  const lon = location?.longitude ?? null;
  const icon = useMemo(() => (lat !== null && lon !== null ? markerIcon(lat, lon) : null), [lat, lon]);
  return (
    <MapContainer
      center={lat !== null && lon !== null ? [lat, lon] : WORLD}
      zoom={lat !== null ? STREET_ZOOM : 2}
      zoomControl={false}
      className="h-full w-full bg-slate-200"
    >
      <TileLayer url={TILE_URL} attribution={ATTRIBUTION} referrerPolicy="no-referrer" />
      <ZoomControl position="topright" />
      {location && icon && (
        <>
          {location.accuracy !== null && location.accuracy > 0 && (
            <Circle
              center={[location.latitude, location.longitude]}
              radius={location.accuracy}
              pathOptions={{ color: "#0284c7", weight: 1, fillColor: "#38bdf8", fillOpacity: 0.15 }}
            />
          )}
          <Marker position={[location.latitude, location.longitude]} icon={icon} keyboard={false} />
        </>
      )}
      <Follow lat={lat} lon={lon} />
    </MapContainer>
  );
}
