"use client";
// The geofence editor's map: every geofence (circle or polygon) with its name when it is large enough on screen,
// trackables as labelled dots, and the shape being edited (./circle-tools, ./polygon-tools) with its controls and
// messages. Import through ./index (client-only, no SSR).
import L from "leaflet";
// Geoman extends the global L that Leaflet sets (window.L): it must be imported after leaflet. Its stylesheet and ours
// are bundled CSS files (the CSP allows this origin's stylesheets).
import "@geoman-io/leaflet-geoman-free";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import "./geofence-map.css";
import { useEffect, useMemo, useRef, useState } from "react";
import { Circle, CircleMarker, Polygon, Tooltip, useMap } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import type { MapConfig } from "@/lib/config/map";
import { DraftShape, DrawTool } from "./circle-tools";
import { MapOverlay } from "./map-overlay";
import { DraftPolygon, PolygonDrawTool, toLatLngs, type Corner } from "./polygon-tools";

export interface Shape {
  latitude: number;
  longitude: number;
  radius: number;
}

/** A polygon's rings as GeoJSON [longitude, latitude] positions, each ring closed; the first is the outer ring. */
export type Rings = [number, number][][];

/** The shape being edited: a circle, or a polygon's rings. */
export type Draft = ({ kind: "circle" } & Shape) | { kind: "polygon"; rings: Rings };

export interface MapGeofence extends Shape {
  id: string;
  name: string;
  /** A polygon's rings as GeoJSON [lon, lat] positions; null for a circle. */
  rings: Rings | null;
}

export interface MapTrackable {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
}

export interface GeofenceMapProps {
  config: MapConfig;
  geofences: MapGeofence[];
  trackables: MapTrackable[];
  selectedId: string | null;
  /** The shape being edited (new or selected), when it is complete and valid. */
  draft: Draft | null;
  /** Which drawing tool is active: a press-and-drag circle, or a polygon drawn vertex by vertex. */
  drawing: "circle" | "polygon" | null;
  /** Changes whenever the map should frame the draft and its neighbours (a selection, typed coordinates…). */
  focusKey: number;
  /** Changes whenever the map should zoom out to every geofence (the list is shown). */
  overviewKey: number;
  onSelect(id: string): void;
  onDraftChange(shape: Shape): void;
  onPolygonChange(rings: Rings): void;
  onDrawEnd(): void;
  onDrawCancel(): void;
}

const DEFAULT_CENTER: L.LatLngTuple = [52.52, 13.405];
const TRACKABLE_LABEL_MIN_ZOOM = 12;

/** A geofence's bounding box: a circle's square, a polygon's outer ring. */
function boundsOf(g: { latitude: number; longitude: number; radius: number; rings: Rings | null }): L.LatLngBounds {
  if (g.rings && g.rings[0]) return L.latLngBounds(toLatLngs([g.rings[0]])[0]!);
  return L.latLng(g.latitude, g.longitude).toBounds(g.radius * 2);
}

function draftBounds(d: Draft): L.LatLngBounds {
  return d.kind === "polygon" ? boundsOf({ latitude: 0, longitude: 0, radius: 0, rings: d.rings }) : L.latLng(d.latitude, d.longitude).toBounds(d.radius * 2);
}

/** The size of bounds on screen at a zoom level, in pixels (Web Mercator, as the map draws them). */
function pixelSize(b: L.LatLngBounds, zoom: number): { width: number; height: number } {
  const ne = L.CRS.EPSG3857.latLngToPoint(b.getNorthEast(), zoom);
  const sw = L.CRS.EPSG3857.latLngToPoint(b.getSouthWest(), zoom);
  return { width: Math.abs(ne.x - sw.x), height: Math.abs(sw.y - ne.y) };
}

/** Whether a name fits inside the fence on screen (about 6.5 px per character at 11 px, plus padding). */
const labelFits = (name: string, size: { width: number; height: number }) => size.width >= name.length * 6.5 + 16 && size.height >= 22;

export default function GeofenceMap(props: GeofenceMapProps) {
  const { config, geofences, trackables, selectedId, draft, drawing } = props;
  const [view, setView] = useState<{ zoom: number; center: string } | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const zoom = view?.zoom ?? null;
  // The first view only: later changes of selection frame themselves (Framer), the map never jumps on a refresh.
  const [initial] = useState(() => initialView(geofences, trackables, selectedId));
  const bounds = useMemo(() => new Map(geofences.map((g) => [g.id, boundsOf(g)])), [geofences]);

  // What the polygon tools have to say (a refused corner, Finish too early), and the corner a click or tap selected.
  const [message, setMessage] = useState<string | null>(null);
  const [corner, setCorner] = useState<Corner | null>(null);
  const draftKey = draft?.kind === "polygon" ? JSON.stringify(draft.rings) : null;
  useEffect(() => setCorner(null), [draftKey, drawing]);

  return (
    <div
      className="relative h-full w-full"
      data-testid="geofence-map"
      // The view, for tests that turn screen pixels into coordinates (the map's centre and its zoom level).
      data-zoom={view?.zoom}
      data-center={view?.center}
      data-drawing={drawing ? "true" : "false"}
      data-drawing-shape={drawing ?? undefined}
    >
      <BaseMap config={config} label="Geofence map" className="h-full w-full" ref={setMap} {...initial}>
        <FenceLabelPane />
        <ViewReporter onView={setView} />
        <Framer draft={draft} focusKey={props.focusKey} overviewKey={props.overviewKey} geofences={geofences} bounds={bounds} selectedId={selectedId} trackables={trackables} />
        {trackables.map((t) => {
          const permanent = zoom !== null && zoom >= TRACKABLE_LABEL_MIN_ZOOM;
          return (
            <CircleMarker
              key={t.id}
              center={[t.latitude, t.longitude]}
              radius={5}
              pmIgnore
              pathOptions={{ color: "#fff", weight: 2, fillColor: "#0f766e", fillOpacity: 1 }}
            >
              {/* Zoomed out the names would pile up over the fences: they show on hover until street level. */}
              <Tooltip key={permanent ? "permanent" : "hover"} permanent={permanent} direction="top" offset={[0, -6]} className="fl-trackable-label">
                {t.name}
              </Tooltip>
            </CircleMarker>
          );
        })}
        {geofences
          .filter((g) => g.id !== selectedId)
          .map((g) => {
            // While drawing, the other fences let clicks through to the map (a corner may lie on a neighbour).
            const style = {
              pmIgnore: true,
              interactive: !drawing,
              pathOptions: { color: "#475569", weight: 2, fillColor: "#64748b", fillOpacity: 0.12 },
              eventHandlers: { click: () => (drawing ? undefined : props.onSelect(g.id)) },
            };
            // A name is drawn on the map only when it fits inside the fence on screen, so it never hides a small
            // fence (or its neighbours); otherwise it shows on hover.
            const permanent = zoom !== null && labelFits(g.name, pixelSize(bounds.get(g.id)!, zoom));
            const label = (
              <Tooltip key={permanent ? "permanent" : "hover"} permanent={permanent} direction="center" className="fl-fence-label" pane={FENCE_LABEL_PANE}>
                {g.name}
              </Tooltip>
            );
            return g.rings ? (
              <Polygon key={`${g.id}-${drawing ? "drawing" : "idle"}`} positions={toLatLngs(g.rings)} {...style}>
                {label}
              </Polygon>
            ) : (
              <Circle key={`${g.id}-${drawing ? "drawing" : "idle"}`} center={[g.latitude, g.longitude]} radius={g.radius} {...style}>
                {label}
              </Circle>
            );
          })}
        {draft?.kind === "circle" ? <DraftShape draft={draft} drawing={drawing === "circle"} onChange={props.onDraftChange} /> : null}
        {draft?.kind === "polygon" && drawing !== "polygon" ? (
          <DraftPolygon rings={draft.rings} editable={drawing === null} onChange={props.onPolygonChange} onSelectCorner={setCorner} onMessage={setMessage} />
        ) : null}
        <DrawTool active={drawing === "circle"} onDraw={props.onDraftChange} onEnd={props.onDrawEnd} onCancel={props.onDrawCancel} />
        <PolygonDrawTool active={drawing === "polygon"} onCreate={props.onPolygonChange} onEnd={props.onDrawEnd} onCancel={props.onDrawCancel} onMessage={setMessage} />
      </BaseMap>
      <MapOverlay
        map={map}
        draft={draft}
        drawing={drawing}
        message={message}
        onMessage={setMessage}
        corner={corner}
        onCorner={setCorner}
        onPolygonChange={props.onPolygonChange}
      />
    </div>
  );
}

/**
 * Fence names go in a pane under the fences and trackables (Leaflet's overlay pane is at 400, tooltips at 650): a name
 * at a fence's centre never hides a trackable's dot there, and trackables' own labels stay on top.
 */
const FENCE_LABEL_PANE = "fl-fence-labels";
function FenceLabelPane() {
  const map = useMap();
  if (!map.getPane(FENCE_LABEL_PANE)) {
    const pane = map.createPane(FENCE_LABEL_PANE);
    pane.style.zIndex = "350";
    pane.style.pointerEvents = "none";
  }
  return null;
}

function initialView(geofences: MapGeofence[], trackables: MapTrackable[], selectedId: string | null) {
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

function ViewReporter({ onView }: { onView: (v: { zoom: number; center: string }) => void }) {
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
function Framer({
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

