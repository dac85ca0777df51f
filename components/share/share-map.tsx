"use client";

import L from "leaflet";
import { useEffect, useMemo, useRef } from "react";
import { Circle, Marker, useMap } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import type { MapConfig } from "@/lib/config/map";
import type { PublicLocation } from "@/lib/share-links/schemas";

const STREET_ZOOM = 15;
const COLOR = "#4f46e5";

/** The app's pulsing dot (globals.css .fl-marker), carrying its coordinates for tests and assistive tools. */
function markerIcon(lat: number, lon: number): L.DivIcon {
  return L.divIcon({
    className: "fl-marker",
    iconSize: [18, 18],
    iconAnchor: [9, 9],
    html:
      `<span class="fl-marker-dot fl-marker-pulse" style="--fl-color:${COLOR}" data-testid="share-marker" ` +
      `data-lat="${lat}" data-lon="${lon}" role="img" aria-label="Current position"></span>`,
  });
}

/**
 * Centres on the first position, then pans only when the marker nears the edge (a visitor's own pan or zoom is
 * kept). The zoom buttons go to the right, away from the card.
 */
function Follow({ lat, lon }: { lat: number | null; lon: number | null }) {
  const map = useMap();
  const placed = useRef(false);
  useEffect(() => {
    map.zoomControl?.setPosition("topright");
    map.attributionControl?.setPrefix(false);
    // On phones the card below the map changes height (empty state → details): keep Leaflet's size in step.
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  useEffect(() => {
    if (lat === null || lon === null) return;
    const here = L.latLng(lat, lon);
    if (!placed.current) {
      placed.current = true;
      map.setView(here, STREET_ZOOM, { animate: false });
    } else if (!map.getBounds().pad(-0.15).contains(here)) {
      map.panTo(here);
    }
  }, [map, lat, lon]);
  return null;
}

export default function ShareMap({ config, location }: { config: MapConfig; location: PublicLocation | null }) {
  const lat = location?.latitude ?? null;
  const lon = location?.longitude ?? null;
  const icon = useMemo(() => (lat !== null && lon !== null ? markerIcon(lat, lon) : null), [lat, lon]);
  return (
    <BaseMap
      config={config}
      label="Map of the shared location"
      center={lat !== null && lon !== null ? [lat, lon] : [20, 0]}
      zoom={lat !== null ? STREET_ZOOM : 2}
      className="h-full w-full [&_.leaflet-container]:rounded-none"
    >
      {location && icon && (
        <>
          {location.accuracy !== null && location.accuracy > 0 && (
            <Circle
              center={[location.latitude, location.longitude]}
              radius={location.accuracy}
              pathOptions={{ color: COLOR, weight: 1, fillColor: COLOR, fillOpacity: 0.12 }}
            />
          )}
          <Marker position={[location.latitude, location.longitude]} icon={icon} keyboard={false} />
        </>
      )}
      <Follow lat={lat} lon={lon} />
    </BaseMap>
  );
}
