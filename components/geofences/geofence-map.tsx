"use client";
// The geofence editor's map: every geofence (circle or polygon) with its name when it is large enough on screen,
// trackables as labelled dots, and the shape being edited. A circle has a centre handle (move) and an edge handle
// (resize); in circle drawing mode a press sets the centre and the drag sets the radius. Polygons are drawn and their
// vertices edited with Leaflet-Geoman. Import through ./index (client-only, no SSR).
import L from "leaflet";
// Geoman extends the global L that Leaflet sets (window.L): it must be imported after leaflet. Its stylesheet and ours
// are bundled CSS files (the CSP allows this origin's stylesheets).
import "@geoman-io/leaflet-geoman-free";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import "./geofence-map.css";
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

const INDIGO = "#4f46e5";
// Leaflet's own Earth radius (L.CRS.Earth.R): distances here match the circles Leaflet draws.
const EARTH_R = 6_371_000;
const DEFAULT_CENTER: L.LatLngTuple = [52.52, 13.405];
const DEFAULT_RADIUS_M = 100;
const TRACKABLE_LABEL_MIN_ZOOM = 12;

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const metres = (n: number) => Math.max(1, Math.round(n));
const toLatLngs = (rings: Rings): L.LatLngTuple[][] => rings.map((ring) => ring.map(([lon, lat]) => [lat, lon] as L.LatLngTuple));

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

  const finishPolygon = () => {
    const tool = map?.pm.Draw.Polygon as unknown as { _finishShape?: () => void } | undefined;
    tool?._finishShape?.();
  };
  const undoVertex = () => {
    const tool = map?.pm.Draw.Polygon as unknown as { _removeLastVertex?: () => void } | undefined;
    tool?._removeLastVertex?.();
  };

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
              <Tooltip key={permanent ? "permanent" : "hover"} permanent={permanent} direction="center" className="fl-fence-label">
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
        {draft?.kind === "polygon" && drawing !== "polygon" ? <DraftPolygon rings={draft.rings} editable={drawing === null} onChange={props.onPolygonChange} /> : null}
        <DrawTool active={drawing === "circle"} onDraw={props.onDraftChange} onEnd={props.onDrawEnd} onCancel={props.onDrawCancel} />
        <PolygonDrawTool active={drawing === "polygon"} onCreate={props.onPolygonChange} onEnd={props.onDrawEnd} onCancel={props.onDrawCancel} />
      </BaseMap>
      {drawing === "circle" ? (
        <div className="pointer-events-none absolute top-3 right-3 left-14 z-[1000] flex justify-center">
          <p className="rounded-full bg-slate-900/85 px-4 py-1.5 text-center text-xs font-medium text-white shadow" role="status">
            {draft?.kind === "circle"
              ? `Radius ${Math.round(draft.radius).toLocaleString("en-GB")} m${draft.radius >= MAX_RADIUS_M ? " (the maximum)" : ""} — release to finish`
              : "Press on the map for the centre, drag out the radius · Esc cancels"}
          </p>
        </div>
      ) : drawing === "polygon" ? (
        <>
          <div className="pointer-events-none absolute top-3 right-3 left-14 z-[1000] flex justify-center">
            <p className="rounded-full bg-slate-900/85 px-4 py-1.5 text-center text-xs font-medium text-white shadow" role="status">
              Click each corner · click the first corner or Finish to close · Esc cancels
            </p>
          </div>
          <div className="absolute right-3 bottom-3 z-[1000] flex gap-2">
            <button type="button" onClick={undoVertex} className="rounded-md bg-white px-3 py-1.5 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-300 hover:bg-slate-50">
              Undo corner
            </button>
            <button type="button" onClick={finishPolygon} className="rounded-md bg-indigo-600 px-3 py-1.5 text-xs font-semibold text-white shadow hover:bg-indigo-500">
              Finish
            </button>
          </div>
        </>
      ) : draft?.kind === "circle" ? (
        <div className="pointer-events-none absolute bottom-3 left-3 z-[1000]">
          <p className="rounded-md bg-white/95 px-2.5 py-1 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-200" data-testid="map-radius">
            Radius {Math.round(draft.radius).toLocaleString("en-GB")} m
          </p>
        </div>
      ) : draft?.kind === "polygon" ? (
        <div className="pointer-events-none absolute bottom-3 left-3 z-[1000] max-w-[70%]">
          <p className="rounded-md bg-white/95 px-2.5 py-1 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-200" data-testid="map-polygon-hint">
            Drag a corner to move it · drag a midpoint to add one
          </p>
        </div>
      ) : null}
    </div>
  );
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

/**
 * A polygon being edited: Geoman's vertex handles on an imperatively managed Leaflet polygon (holes included, drawn as
 * holes). Every finished edit reports the rings as GeoJSON; rings coming back from the form unchanged do not rebuild
 * the layer (which would drop the handle being dragged).
 */
function DraftPolygon({ rings, editable, onChange }: { rings: Rings; editable: boolean; onChange: (rings: Rings) => void }) {
  const map = useMap();
  const layerRef = useRef<L.Polygon | null>(null);
  const emitted = useRef<string | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const key = JSON.stringify(rings);

  useEffect(() => {
    const layer = L.polygon([], { color: INDIGO, weight: 2.5, fillColor: INDIGO, fillOpacity: 0.18 });
    layer.addTo(map);
    layerRef.current = layer;
    const changed = () => {
      const geometry = layer.toGeoJSON(6).geometry as { type: "Polygon"; coordinates: Rings };
      emitted.current = JSON.stringify(geometry.coordinates);
      onChangeRef.current(geometry.coordinates);
    };
    layer.on("pm:edit", changed);
    return () => {
      layer.off("pm:edit", changed);
      layer.pm.disable();
      layer.remove();
      layerRef.current = null;
      emitted.current = null;
    };
  }, [map]);

  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    if (key !== emitted.current) {
      layer.pm.disable();
      layer.setLatLngs(toLatLngs(JSON.parse(key) as Rings));
      emitted.current = null;
    }
    if (editable && !layer.pm.enabled()) {
      layer.pm.enable({ allowSelfIntersection: false, snappable: false, removeLayerBelowMinVertexCount: false, draggable: false });
    } else if (!editable && layer.pm.enabled()) layer.pm.disable();
  }, [key, editable]);
  return null;
}

/** Geoman's polygon drawing: click each vertex, close on the first one (or Finish / Enter); Esc cancels. */
function PolygonDrawTool({ active, onCreate, onEnd, onCancel }: { active: boolean; onCreate: (r: Rings) => void; onEnd: () => void; onCancel: () => void }) {
  const map = useMap();
  const callbacks = useRef({ onCreate, onEnd, onCancel });
  useEffect(() => {
    callbacks.current = { onCreate, onEnd, onCancel };
  });
  useEffect(() => {
    if (!active) return;
    map.pm.setGlobalOptions({ finishOnEnter: true });
    map.doubleClickZoom.disable();
    map.pm.enableDraw("Polygon", {
      snappable: false,
      allowSelfIntersection: false,
      tooltips: false,
      templineStyle: { color: INDIGO },
      hintlineStyle: { color: INDIGO, dashArray: "5 5" },
      pathOptions: { color: INDIGO, fillColor: INDIGO, fillOpacity: 0.18 },
    });
    const created = (e: { layer: L.Layer }) => {
      const layer = e.layer as L.Polygon;
      const geometry = layer.toGeoJSON(6).geometry as { type: "Polygon"; coordinates: Rings };
      layer.remove(); // the draft polygon takes over
      callbacks.current.onCreate(geometry.coordinates);
      callbacks.current.onEnd();
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape") callbacks.current.onCancel();
    };
    map.on("pm:create", created);
    document.addEventListener("keydown", key);
    return () => {
      map.off("pm:create", created);
      document.removeEventListener("keydown", key);
      map.pm.disableDraw();
      map.doubleClickZoom.enable();
    };
  }, [active, map]);
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
