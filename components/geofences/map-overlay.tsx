"use client";
// What sits over the geofence map: the drawing instructions, the polygon's Undo / Finish / Remove corner buttons and
// the messages of the polygon tools (announced), and the radius or editing hint. Everything at the bottom stays above
// the map's attribution line (bottom right), which it must not cover.
import type L from "leaflet";
import { MAX_RADIUS_M } from "@/lib/geofences/limits";
import type { Draft, Rings } from "./map-types";
import { finishDrawing, undoCorner, withoutCorner, type Corner } from "./polygon-tools";
import { useCoarsePointer } from "./use-coarse-pointer";

const pill = "rounded-full bg-slate-900/85 px-4 py-1.5 text-center text-xs font-medium text-white shadow";
const note = "rounded-md bg-white/95 px-2.5 py-1 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-200";
const secondary = "pointer-events-auto rounded-md bg-white px-3 py-1.5 text-xs font-medium text-slate-800 shadow ring-1 ring-slate-300 hover:bg-slate-50";
const metres = (r: number) => `${Math.round(r).toLocaleString("en-GB")} m`;

function Instruction({ children }: { children: React.ReactNode }) {
  return (
    <div className="pointer-events-none absolute top-3 right-3 left-14 z-[1000] flex justify-center">
      <p className={pill} role="status">
        {children}
      </p>
    </div>
  );
}

/** A polygon tool's message: shown beside its buttons and announced at once. */
function Message({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-xs font-medium text-amber-900 shadow ring-1 ring-amber-300" data-testid="polygon-message">
      {text}
    </p>
  ) : null;
}

export function MapOverlay({
  map,
  draft,
  drawing,
  message,
  onMessage,
  corner,
  onCorner,
  onPolygonChange,
}: {
  map: L.Map | null;
  draft: Draft | null;
  drawing: "circle" | "polygon" | null;
  message: string | null;
  onMessage: (message: string | null) => void;
  corner: Corner | null;
  onCorner: (corner: Corner | null) => void;
  onPolygonChange: (rings: Rings) => void;
}) {
  const touch = useCoarsePointer();
  const bottom = "pointer-events-none absolute bottom-7 left-3 z-[1000] flex max-w-[calc(100%-1.5rem)] flex-col items-start gap-2 sm:max-w-sm";

  if (drawing === "circle") {
    return (
      <Instruction>
        {draft?.kind === "circle"
          ? `Radius ${metres(draft.radius)}${draft.radius >= MAX_RADIUS_M ? " (the maximum)" : ""} — release to finish`
          : "Press on the map for the centre, drag out the radius · Esc cancels"}
      </Instruction>
    );
  }
  if (drawing === "polygon") {
    return (
      <>
        <Instruction>{touch ? "Tap each corner · tap the first corner or Finish to close" : "Click each corner · click the first corner or Finish to close · Esc cancels"}</Instruction>
        <div className={bottom}>
          <Message text={message} />
          <div className="flex gap-2">
            <button type="button" onClick={() => undoCorner(map, onMessage)} className={secondary}>
              Undo corner
            </button>
            <button
              type="button"
              onClick={() => finishDrawing(map, onMessage)}
              className="pointer-events-auto rounded-md bg-indigo-600 px-3 py-1.5 text-xs font-semibold text-white shadow hover:bg-indigo-500"
            >
              Finish
            </button>
          </div>
        </div>
      </>
    );
  }
  if (draft?.kind === "circle") {
    return (
      <div className={bottom}>
        <p className={note} data-testid="map-radius">
          Radius {metres(draft.radius)}
        </p>
      </div>
    );
  }
  if (draft?.kind !== "polygon") return null;
  const rings = draft.rings;
  const remove = (c: Corner) => {
    const result = withoutCorner(rings, c);
    if ("error" in result) return onMessage(result.error);
    onMessage(null);
    onCorner(null);
    onPolygonChange(result.rings);
  };
  const name = (c: Corner) => `corner ${c.index + 1}${c.ring > 0 ? ` of hole ${c.ring}` : ""}`;
  return (
    <div className={bottom}>
      <Message text={message} />
      <p className={note} data-testid="map-polygon-hint">
        {touch
          ? "Drag a corner to move it · drag a midpoint to add one · tap a corner, then Remove corner"
          : "Drag a corner to move it · drag a midpoint to add one · right-click a corner (or click it, then Remove corner) to remove it"}
      </p>
      {corner ? (
        <div className="flex gap-2">
          <button type="button" onClick={() => remove(corner)} className={secondary}>
            Remove {name(corner)}
          </button>
          <button type="button" onClick={() => onCorner(null)} className={secondary} aria-label="Keep the corner">
            Keep
          </button>
        </div>
      ) : null}
    </div>
  );
}
