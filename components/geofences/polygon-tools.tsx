"use client";
// The polygon pieces of the geofence map: drawing corner by corner and editing corners with Leaflet-Geoman, plus what
// Geoman does silently said out loud (a corner refused because the sides would cross, Finish with too few corners) and
// a "Remove corner" button for the selected corner, which a touch screen needs (it has no right-click).
import L from "leaflet";
import kinks from "@turf/kinks";
import { polygon as turfPolygon } from "@turf/helpers";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import type { Rings } from "./map-types";

export const INDIGO = "#4f46e5";
export const toLatLngs = (rings: Rings): L.LatLngTuple[][] => rings.map((ring) => ring.map(([lon, lat]) => [lat, lon] as L.LatLngTuple));

export const CROSSING_CORNER = "That corner was not added: the outline would cross itself there. Pick a point that keeps the sides apart.";
export const CROSSING_CLOSE = "The polygon cannot close yet: the closing side would cross another side. Move or undo a corner first.";
export const CROSSING_DRAG = "That move would make the sides cross, so the corner went back.";
export const tooFewCorners = (n: number) =>
  `A polygon needs at least 3 corners; ${n === 0 ? "none is placed yet" : `only ${n} ${n === 1 ? "is" : "are"} placed`}. Click (or tap) on the map to add corners.`;

/** A selected corner: its ring and its index in that ring (0-based; the closing position is never selected). */
export interface Corner {
  ring: number;
  index: number;
}

/** The rings without one corner, or why it cannot go: a ring keeps 3 corners, and the sides must not cross. */
export function withoutCorner(rings: Rings, { ring, index }: Corner): { rings: Rings } | { error: string } {
  const open = rings[ring]!.slice(0, -1);
  if (open.length <= 3) return { error: `A ${ring === 0 ? "polygon" : "hole"} needs at least 3 corners: this one cannot be removed.` };
  const kept = open.filter((_, i) => i !== index);
  const next = rings.map((r, i) => (i === ring ? [...kept, kept[0]!] : r));
  if (kinks(turfPolygon(next)).features.length > 0) return { error: "Without that corner the sides would cross: it was kept." };
  return { rings: next };
}

/**
 * A polygon being edited: Geoman's vertex handles on an imperatively managed Leaflet polygon (holes included, drawn as
 * holes). Every finished edit reports the rings as GeoJSON; rings coming back from the form unchanged do not rebuild
 * the layer (which would drop the handle being dragged). A click or tap on a corner selects it.
 */
export function DraftPolygon({
  rings,
  editable,
  onChange,
  onSelectCorner,
  onMessage,
}: {
  rings: Rings;
  editable: boolean;
  onChange: (rings: Rings) => void;
  onSelectCorner: (corner: Corner | null) => void;
  onMessage: (message: string | null) => void;
}) {
  const map = useMap();
  const layerRef = useRef<L.Polygon | null>(null);
  const emitted = useRef<string | null>(null);
  const callbacks = useRef({ onChange, onSelectCorner, onMessage });
  useEffect(() => {
    callbacks.current = { onChange, onSelectCorner, onMessage };
  });
  const key = JSON.stringify(rings);

  useEffect(() => {
    const layer = L.polygon([], { color: INDIGO, weight: 2.5, fillColor: INDIGO, fillOpacity: 0.18 });
    layer.addTo(map);
    layerRef.current = layer;
    const changed = () => {
      const geometry = layer.toGeoJSON(6).geometry as { type: "Polygon"; coordinates: Rings };
      emitted.current = JSON.stringify(geometry.coordinates);
      callbacks.current.onSelectCorner(null);
      callbacks.current.onMessage(null);
      callbacks.current.onChange(geometry.coordinates);
    };
    const clicked = (e: L.LeafletEvent) => {
      const [ring, index] = (e as L.LeafletEvent & { indexPath?: number[] }).indexPath ?? [];
      if (ring !== undefined && index !== undefined) callbacks.current.onSelectCorner({ ring, index });
    };
    const reset = () => callbacks.current.onMessage(CROSSING_DRAG);
    layer.on("pm:edit", changed);
    layer.on("pm:vertexclick", clicked);
    layer.on("pm:layerreset", reset);
    return () => {
      layer.off("pm:edit", changed);
      layer.off("pm:vertexclick", clicked);
      layer.off("pm:layerreset", reset);
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

type DrawingTool = { _layer?: L.Polyline; _finishShape?: () => void; _removeLastVertex?: () => void };

/** The corners placed so far by Geoman's polygon drawing (its working layer). */
const placed = (map: L.Map): L.LatLng[] => ((map.pm.Draw.Polygon as unknown as DrawingTool)._layer?.getLatLngs() as L.LatLng[] | undefined) ?? [];

/** Whether adding `at` after `corners` (and, when closing, the side back to the first) makes the outline cross itself. */
function crosses(corners: L.LatLng[], at: L.LatLng | null): boolean {
  const line = at ? [...corners, at] : [...corners, corners[0]!];
  if (line.length < 4) return false;
  return kinks({ type: "LineString", coordinates: line.map((p) => [p.lng, p.lat]) }).features.length > 0;
}

/**
 * Geoman's polygon drawing: click each vertex, close on the first one (or Finish / Enter); Esc cancels. A click that
 * Geoman refuses (the sides would cross) is reported through onMessage, as are the Finish and Undo buttons' answers.
 */
export function PolygonDrawTool({
  active,
  onCreate,
  onEnd,
  onCancel,
  onMessage,
}: {
  active: boolean;
  onCreate: (r: Rings) => void;
  onEnd: () => void;
  onCancel: () => void;
  onMessage: (message: string | null) => void;
}) {
  const map = useMap();
  const callbacks = useRef({ onCreate, onEnd, onCancel, onMessage });
  useEffect(() => {
    callbacks.current = { onCreate, onEnd, onCancel, onMessage };
  });
  useEffect(() => {
    if (!active) return;
    map.pm.setGlobalOptions({ finishOnEnter: false });
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
      callbacks.current.onMessage(null);
      callbacks.current.onCreate(geometry.coordinates);
      callbacks.current.onEnd();
    };
    // Registered after Geoman's own click handler, so it sees whether the click added a corner (the newest corner is
    // then where the click was).
    const clicked = (e: L.LeafletMouseEvent) => {
      const corners = placed(map);
      if (corners.at(-1)?.equals(e.latlng)) callbacks.current.onMessage(null);
      else if (crosses(corners, e.latlng)) callbacks.current.onMessage(CROSSING_CORNER);
    };
    // Enter finishes as the Finish button does (Geoman's own finishOnEnter would refuse silently).
    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape") callbacks.current.onCancel();
      else if (e.key === "Enter" && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLButtonElement)) {
        finishDrawing(map, callbacks.current.onMessage);
      }
    };
    map.on("pm:create", created);
    map.on("click", clicked);
    document.addEventListener("keydown", key);
    return () => {
      map.off("pm:create", created);
      map.off("click", clicked);
      document.removeEventListener("keydown", key);
      map.pm.disableDraw();
      map.doubleClickZoom.enable();
      callbacks.current.onMessage(null);
    };
  }, [active, map]);
  return null;
}

/** Finish: closes the polygon, or says why it cannot. */
export function finishDrawing(map: L.Map | null, onMessage: (message: string | null) => void): void {
  if (!map) return;
  const corners = placed(map);
  if (corners.length < 3) return onMessage(tooFewCorners(corners.length));
  if (crosses(corners, null)) return onMessage(CROSSING_CLOSE);
  (map.pm.Draw.Polygon as unknown as DrawingTool)._finishShape?.();
}

/** Undo corner: removes the last corner placed. */
export function undoCorner(map: L.Map | null, onMessage: (message: string | null) => void): void {
  if (!map) return;
  if (placed(map).length === 0) return onMessage("There is no corner to undo yet.");
  (map.pm.Draw.Polygon as unknown as DrawingTool)._removeLastVertex?.();
  onMessage(null);
}
