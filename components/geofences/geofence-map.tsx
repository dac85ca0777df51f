"use client";
// The geofence editor's map: every geofence (circle or polygon) with its name when it is large enough on screen,
// trackables as labelled dots, and the shape being edited (./circle-tools, ./polygon-tools) with its controls and
// messages. Import through ./index (client-only, no SSR).
import type L from "leaflet";
// Geoman extends the global L that Leaflet sets (window.L): leaflet must be evaluated before it, hence the import for
// its effect (this module uses Leaflet's types only, and an import used only for types is dropped from the bundle).
// Their stylesheets and ours are bundled CSS files (the CSP allows this origin's stylesheets).
import "leaflet";
import "@geoman-io/leaflet-geoman-free";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import "./geofence-map.css";
import { useEffect, useMemo, useState } from "react";
import { Circle, CircleMarker, Polygon, Tooltip } from "react-leaflet";
import BaseMap from "@/components/map/base-map";
import type { MapConfig } from "@/lib/config/map";
import { DraftShape, DrawTool } from "./circle-tools";
import { MapOverlay } from "./map-overlay";
import type { Draft, MapGeofence, MapTrackable, Rings, Shape } from "./map-types";
import { boundsOf, FENCE_LABEL_PANE, FenceLabelPane, Framer, initialView, labelFits, pixelSize, ViewReporter } from "./map-view";
import { DraftPolygon, PolygonDrawTool, toLatLngs, type Corner } from "./polygon-tools";

export type { Draft, MapGeofence, MapTrackable, Rings, Shape } from "./map-types";

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

const TRACKABLE_LABEL_MIN_ZOOM = 12;

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
