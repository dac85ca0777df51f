"use client";
// What the geofence editor's map shows where: its first view, the framing of a selection and its neighbours, the
// overview, whether a fence's name fits inside it on screen, and the view it reports to tests.
import L from "leaflet";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import type { Draft, MapGeofence, MapTrackable, Rings } from "./map-types";
import { toLatLngs } from "./polygon-tools";

const DEFAULT_CENTER: L.LatLngTuple = [52.52, 13.405];

/** A geofence's bounding box: a circle's square, a polygon's outer ring. */
export function boundsOf(g: { latitude: number; longitude: number; radius: number; rings: Rings | null }): L.LatLngBounds {
  if (g.rings && g.rings[0]) return L.latLngBounds(toLatLngs([g.rings[0]])[0]!);
  return L.latLng(g.latitude, g.longitude).toBounds(g.radius * 2);
}

function draftBounds(d: Draft): L.LatLngBounds {
  return d.kind === "polygon" ? boundsOf({ latitude: 0, longitude: 0, radius: 0, rings: d.rings }) : L.latLng(d.latitude, d.longitude).toBounds(d.radius * 2);
}

/** The size of bounds on screen at a zoom level, in pixels (Web Mercator, as the map draws them). */
export function pixelSize(b: L.LatLngBounds, zoom: number): { width: number; height: number } {
  const ne = L.CRS.EPSG3857.latLngToPoint(b.getNorthEast(), zoom);
  const sw = L.CRS.EPSG3857.latLngToPoint(b.getSouthWest(), zoom);
  return { width: Math.abs(ne.x - sw.x), height: Math.abs(sw.y - ne.y) };
}

/** Whether a name fits inside the fence on screen (about 6.5 px per character at 11 px, plus padding). */
export const labelFits = (name: string, size: { width: number; height: number }) => size.width >= name.length * 6.5 + 16 && size.height >= 22;

/**
 * Fence names go in a pane under the fences and trackables (Leaflet's overlay pane is at 400, tooltips at 650): a name
 * at a fence's centre never hides a trackable's dot there, and trackables' own labels stay on top.
 */
export const FENCE_LABEL_PANE = "fl-fence-labels";
export function FenceLabelPane() {
  const map = useMap();
  if (!map.getPane(FENCE_LABEL_PANE)) {
    const pane = map.createPane(FENCE_LABEL_PANE);
    pane.style.zIndex = "350";
    pane.style.pointerEvents = "none";
  }
  return null;
}

export function initialView(geofences: MapGeofence[], trackables: MapTrackable[], selectedId: string | null) {
  const selected = geofences.find((g) => g.id === selectedId);
  if (selected) return { bounds: neighbourhood(selected.id, boundsOf(selected), geofences.map((g) => [g.id, boundsOf(g)] as const)) };
  const boxes: L.LatLngBounds[] = [
    ...geofences.map((g) => boundsOf(g)),
    ...trackables.map((t) => L.latLng(t.latitude, t.longitude).toBounds(200)),
  ];
  if (boxes.length === 0) return { center: DEFAULT_CENTER, zoom: 13 };
  return { bounds: boxes.reduce((acc, b) => acc.extend(b), L.latLngBounds(boxes[0]!.getSouthWest(), boxes[0]!.getNorthEast())) };
}

/**
 * What to frame when a fence is selected: the fence and its neighbours, the fences that lie within about one and a
 * half of its own size around it (so a selection never zooms in so far that the fences next to it vanish), and at
 * least the nearest other fence when it is within 5 km.
 */
function neighbourhood(id: string, own: L.LatLngBounds, all: readonly (readonly [string, L.LatLngBounds])[]): L.LatLngBounds {
  const around = own.pad(1.5);
  const out = L.latLngBounds(own.getSouthWest(), own.getNorthEast());
  let nearest: { d: number; b: L.LatLngBounds } | null = null;
  const centre = own.getCenter();
  for (const [otherId, b] of all) {
    if (otherId === id) continue;
    if (around.intersects(b)) out.extend(b);
    const d = centre.distanceTo(b.getCenter());
    if (!nearest || d < nearest.d) nearest = { d, b };
  }
  if (nearest && nearest.d <= 5000) out.extend(nearest.b);
  return out;
}

export function ViewReporter({ onView }: { onView: (v: { zoom: number; center: string }) => void }) {
  const map = useMap();
  useEffect(() => {
    const report = () => {
      const c = map.getCenter();
      onView({ zoom: map.getZoom(), center: `${c.lat},${c.lng}` });
    };
    report();
    map.on("zoomend moveend viewreset", report);
    return () => {
      map.off("zoomend moveend viewreset", report);
    };
  }, [map, onView]);
  return null;
}

/**
 * Frames the draft and its neighbours whenever focusKey changes (not on every edit: dragging a handle must not move the
 * map), and every fence (and trackable) whenever overviewKey changes.
 */
export function Framer({
  draft,
  focusKey,
  overviewKey,
  geofences,
  bounds,
  selectedId,
  trackables,
}: {
  draft: Draft | null;
  focusKey: number;
  overviewKey: number;
  geofences: MapGeofence[];
  bounds: ReadonlyMap<string, L.LatLngBounds>;
  selectedId: string | null;
  trackables: MapTrackable[];
}) {
  const map = useMap();
  const latest = useRef({ draft, geofences, bounds, selectedId, trackables });
  useEffect(() => {
    latest.current = { draft, geofences, bounds, selectedId, trackables };
  });
  useEffect(() => {
    const { draft: d, bounds: all, selectedId: id } = latest.current;
    if (focusKey === 0 || !d) return;
    const own = draftBounds(d);
    map.fitBounds(neighbourhood(id ?? "", own, [...all.entries()].filter(([k]) => k !== id)), { animate: false, maxZoom: 17, padding: [32, 32] });
  }, [focusKey, map]);
  useEffect(() => {
    if (overviewKey === 0) return;
    const { geofences: gs, trackables: ts } = latest.current;
    const view = initialView(gs, ts, null);
    if ("bounds" in view && view.bounds) map.fitBounds(view.bounds, { animate: false, maxZoom: 16, padding: [32, 32] });
  }, [overviewKey, map]);
  return null;
}

