"use client";
// The circle pieces of the geofence map: the draft circle with its centre (move) and edge (resize) handles, and the
// press-and-drag drawing tool (mouse through Leaflet's map events, one-finger touch through the container's).
import L from "leaflet";
import { useEffect, useMemo, useRef, useState } from "react";
import { Circle, Marker, useMap } from "react-leaflet";
import { MAX_RADIUS_M } from "@/lib/geofences/limits";
import type { Shape } from "./map-types";
import { INDIGO } from "./polygon-tools";

// Leaflet's own Earth radius (L.CRS.Earth.R): distances here match the circles Leaflet draws.
const EARTH_R = 6_371_000;
const DEFAULT_RADIUS_M = 100;

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

export function DraftShape({ draft, drawing, onChange }: { draft: Shape; drawing: boolean; onChange: (s: Shape) => void }) {
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
export function DrawTool({ active, onDraw, onEnd, onCancel }: { active: boolean; onDraw: (s: Shape) => void; onEnd: () => void; onCancel: () => void }) {
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
