"use client";
// The geofence editor's map: every geofence as a named circle, trackables as small dots, and the shape being edited
// with a centre handle (move) and an edge handle (resize). In drawing mode a press sets the centre and the drag sets
// the radius. Import through ./index (client-only, no SSR).
import L from "leaflet";
import { useEffect, useMemo, useRef, useState } from "react";
import { Circle, CircleMarker, Marker, Polygon, Tooltip, useMap } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import type { MapConfig } from "@/lib/config/map";
import { MAX_RADIUS_M } from "@/lib/geofences/limits";

export interface Shape {
  latitude: number;
  longitude: number;
  radius: number;
}

export interface MapGeofence extends Shape {
  id: string;
  name: string;
  /** A polygon's rings as GeoJSON [lon, lat] positions; null for a circle. */
  rings: [number, number][][] | null;
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
  /** The shape being edited (new or selected), when its fields hold valid numbers. */
  draft: Shape | null;
  drawing: boolean;
  /** Changes whenever the map should frame the draft (a selection from the list, typed coordinates…). */
  focusKey: number;
  onSelect(id: string): void;
  onDraftChange(shape: Shape): void;
  onDrawEnd(): void;
  onDrawCancel(): void;
}

const INDIGO = "#4f46e5";
// Leaflet's own Earth radius (L.CRS.Earth.R): distances here match the circles Leaflet draws.
const EARTH_R = 6_371_000;
const DEFAULT_CENTER: L.LatLngTuple = [52.52, 13.405];
const DEFAULT_RADIUS_M = 100;
const LABEL_MIN_ZOOM = 11;

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const metres = (n: number) => Math.max(1, Math.round(n));

/** The point `radius` metres due east of the centre: where the resize handle sits. */
function eastOf(s: Shape): L.LatLngTuple {
  const dLon = (s.radius / (EARTH_R * Math.cos((s.latitude * Math.PI) / 180))) * (180 / Math.PI);
  return [s.latitude, s.longitude + dLon];
}

function shapeAt(center: L.LatLng, radius: number): Shape {
  const c = center.wrap();
  return { latitude: round6(c.lat), longitude: round6(c.lng), radius: Math.min(MAX_RADIUS_M, metres(radius)) };
}

function handleIcon(kind: "move" | "resize"): L.DivIcon {
  const size = 16;
  const cursor = kind === "move" ? "move" : "ew-resize";
  const shape = kind === "move" ? "border-radius:9999px" : "border-radius:3px";
  return L.divIcon({
    className: "fl-marker",
    html: `<span style="display:block;width:${size}px;height:${size}px;${shape};background:#fff;border:3px solid ${INDIGO};box-shadow:0 1px 4px rgb(0 0 0 / .35);cursor:${cursor}"></span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

export default function GeofenceMap(props: GeofenceMapProps) {
  const { config, geofences, trackables, selectedId, draft, drawing } = props;
  const [view, setView] = useState<{ zoom: number; center: string } | null>(null);
  const zoom = view?.zoom ?? null;
  // The first view only: later changes of selection frame themselves (Framer), the map never jumps on a refresh.
  const [initial] = useState(() => initialView(geofences, trackables, selectedId));

  return (
    <div
      className="relative h-full w-full"
      data-testid="geofence-map"
      // The view, for tests that turn screen pixels into coordinates (the map's centre and its zoom level).
      data-zoom={view?.zoom}
      data-center={view?.center}
      data-drawing={drawing ? "true" : "false"}
    >
      <BaseMap config={config} label="Geofence map" className="h-full w-full" {...initial}>
        <ViewReporter onView={setView} />
        <Framer draft={draft} focusKey={props.focusKey} />
        {trackables.map((t) => (
          <CircleMarker
            key={t.id}
            center={[t.latitude, t.longitude]}
            radius={5}
            pathOptions={{ color: "#fff", weight: 2, fillColor: "#0f766e", fillOpacity: 1 }}
          >
            <Tooltip direction="top" offset={[0, -6]}>
              {t.name}
            </Tooltip>
          </CircleMarker>
        ))}
        {geofences
          .filter((g) => g.id !== selectedId)
          .map((g) => {
            const style = { pathOptions: { color: "#475569", weight: 2, fillColor: "#64748b", fillOpacity: 0.12 }, eventHandlers: { click: () => (drawing ? undefined : props.onSelect(g.id)) } };
            // Names stay on the map from street level; zoomed out they would pile up, so they show on hover.
            const label = (
              <Tooltip key={zoom !== null && zoom >= LABEL_MIN_ZOOM ? "permanent" : "hover"} permanent={zoom !== null && zoom >= LABEL_MIN_ZOOM} direction="center">
                {g.name}
              </Tooltip>
            );
            return g.rings ? (
              <Polygon key={g.id} positions={g.rings.map((ring) => ring.map(([lon, lat]) => [lat, lon] as [number, number]))} {...style}>
                {label}
              </Polygon>
            ) : (
              <Circle key={g.id} center={[g.latitude, g.longitude]} radius={g.radius} {...style}>
                {label}
              </Circle>
            );
          })}
        {draft ? <DraftShape draft={draft} drawing={drawing} onChange={props.onDraftChange} /> : null}
        <DrawTool active={drawing} onDraw={props.onDraftChange} onEnd={props.onDrawEnd} onCancel={props.onDrawCancel} />
      </BaseMap>
      {drawing ? (
        <div className="pointer-events-none absolute top-3 right-3 left-14 z-[1000] flex justify-center">
          <p className="rounded-full bg-slate-900/85 px-4 py-1.5 text-center text-xs font-medium text-white shadow" role="status">
            {draft
              ? `Radius ${Math.round(draft.radius).toLocaleString("en-GB")} m${draft.radius >= MAX_RADIUS_M ? " (the maximum)" : ""} — release to finish`
              : "Press on the map for the centre, drag out the radius · Esc cancels"}
          </p>
        </div>
      ) : draft ? (
        <div className="pointer-events-none absolute bottom-3 left-3 z-[1000]">
          <p className="rounded-md bg-white/95 px-2.5 py-1 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-200" data-testid="map-radius">
            Radius {Math.round(draft.radius).toLocaleString("en-GB")} m
          </p>
        </div>
      ) : null}
    </div>
  );
}

function initialView(geofences: MapGeofence[], trackables: MapTrackable[], selectedId: string | null) {
  const selected = geofences.find((g) => g.id === selectedId);
  if (selected) return { bounds: L.latLng(selected.latitude, selected.longitude).toBounds(selected.radius * 2.4) };
  const points: L.LatLngBounds[] = [
    ...geofences.map((g) => L.latLng(g.latitude, g.longitude).toBounds(g.radius * 2)),
    ...trackables.map((t) => L.latLng(t.latitude, t.longitude).toBounds(200)),
  ];
  if (points.length === 0) return { center: DEFAULT_CENTER, zoom: 13 };
  const bounds = points.reduce((acc, b) => acc.extend(b), L.latLngBounds(points[0]!.getSouthWest(), points[0]!.getNorthEast()));
  return { bounds };
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

/** Frames the draft whenever focusKey changes (not on every edit: dragging a handle must not move the map). */
function Framer({ draft, focusKey }: { draft: Shape | null; focusKey: number }) {
  const map = useMap();
  const latest = useRef(draft);
  latest.current = draft;
  useEffect(() => {
    const d = latest.current;
    if (focusKey === 0 || !d) return;
    map.fitBounds(L.latLng(d.latitude, d.longitude).toBounds(d.radius * 2.4), { animate: false, maxZoom: 17 });
  }, [focusKey, map]);
  return null;
}

function DraftShape({ draft, drawing, onChange }: { draft: Shape; drawing: boolean; onChange: (s: Shape) => void }) {
  const map = useMap();
  const moveIcon = useMemo(() => handleIcon("move"), []);
  const resizeIcon = useMemo(() => handleIcon("resize"), []);
  // While the edge handle is dragged it stays where the pointer puts it; afterwards it snaps back due east.
  const [edgeDrag, setEdgeDrag] = useState<L.LatLng | null>(null);
  const center: L.LatLngTuple = [draft.latitude, draft.longitude];
  return (
    <>
      <Circle
        center={center}
        radius={draft.radius}
        interactive={false}
        pathOptions={{ color: INDIGO, weight: 2.5, fillColor: INDIGO, fillOpacity: 0.18, dashArray: drawing ? "6 6" : undefined }}
      />
      {drawing ? null : (
        <>
          <Marker
            position={center}
            icon={moveIcon}
            draggable
            keyboard={false}
            title="Drag to move the geofence"
            eventHandlers={{
              drag: (e) => onChange({ ...shapeAt((e.target as L.Marker).getLatLng(), draft.radius) }),
            }}
          />
          <Marker
            position={edgeDrag ?? eastOf(draft)}
            icon={resizeIcon}
            draggable
            keyboard={false}
            title="Drag to resize the geofence"
            eventHandlers={{
              drag: (e) => {
                const at = (e.target as L.Marker).getLatLng();
                setEdgeDrag(at);
                onChange({ latitude: draft.latitude, longitude: draft.longitude, radius: metres(map.distance(center, at)) });
              },
              dragend: () => setEdgeDrag(null),
            }}
          />
        </>
      )}
    </>
  );
}

/**
 * Press for the centre, drag for the radius, release to finish; the map does not pan meanwhile. Mouse through
 * Leaflet's map events; one-finger touch through the container's touch events (Leaflet has no map touch events).
 */
function DrawTool({ active, onDraw, onEnd, onCancel }: { active: boolean; onDraw: (s: Shape) => void; onEnd: () => void; onCancel: () => void }) {
  const map = useMap();
  const callbacks = useRef({ onDraw, onEnd, onCancel });
  callbacks.current = { onDraw, onEnd, onCancel };
  useEffect(() => {
    if (!active) return;
    let start: L.LatLng | null = null;
    const container = map.getContainer();
    map.dragging.disable();
    map.doubleClickZoom.disable();
    map.boxZoom.disable();
    container.style.cursor = "crosshair";

    const begin = (at: L.LatLng) => {
      start = at;
      callbacks.current.onDraw(shapeAt(at, 1));
    };
    const stretch = (to: L.LatLng) => {
      if (start) callbacks.current.onDraw(shapeAt(start, map.distance(start, to)));
    };
    const finish = (to: L.LatLng) => {
      if (!start) return;
      const r = map.distance(start, to);
      callbacks.current.onDraw(shapeAt(start, r < 1 ? DEFAULT_RADIUS_M : r));
      start = null;
      callbacks.current.onEnd();
    };

    const down = (e: L.LeafletMouseEvent) => {
      if (e.originalEvent.button === 0) begin(e.latlng);
    };
    const move = (e: L.LeafletMouseEvent) => stretch(e.latlng);
    // On the document, so a release outside the map still finishes the circle.
    const up = (e: MouseEvent) => finish(map.mouseEventToLatLng(e));

    const touchAt = (t: Touch) => {
      const rect = container.getBoundingClientRect();
      return map.containerPointToLatLng([t.clientX - rect.left - container.clientLeft, t.clientY - rect.top - container.clientTop]);
    };
    const onControl = (e: Event) => e.target instanceof Element && e.target.closest(".leaflet-control") !== null;
    const touchStart = (e: TouchEvent) => {
      if (e.touches.length !== 1 || onControl(e)) return;
      e.preventDefault(); // no emulated mouse events, no scrolling
      begin(touchAt(e.touches[0]!));
    };
    const touchMove = (e: TouchEvent) => {
      if (!start || e.touches.length !== 1) return;
      e.preventDefault();
      stretch(touchAt(e.touches[0]!));
    };
    const touchEnd = (e: TouchEvent) => {
      const t = e.changedTouches[0];
      if (start && t) finish(touchAt(t));
    };

    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape") callbacks.current.onCancel();
    };
    map.on("mousedown", down);
    map.on("mousemove", move);
    document.addEventListener("mouseup", up);
    container.addEventListener("touchstart", touchStart, { passive: false });
    container.addEventListener("touchmove", touchMove, { passive: false });
    container.addEventListener("touchend", touchEnd);
    document.addEventListener("keydown", key);
    return () => {
      map.off("mousedown", down);
      map.off("mousemove", move);
      document.removeEventListener("mouseup", up);
      container.removeEventListener("touchstart", touchStart);
      container.removeEventListener("touchmove", touchMove);
      container.removeEventListener("touchend", touchEnd);
      document.removeEventListener("keydown", key);
      map.dragging.enable();
      map.doubleClickZoom.enable();
      map.boxZoom.enable();
      container.style.cursor = "";
    };
  }, [active, map]);
  return null;
}
