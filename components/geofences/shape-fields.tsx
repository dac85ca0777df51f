"use client";
// The form's shape: circle or polygon, "Draw on map", a circle's typed centre and radius, what to do with a polygon
// on this device (mouse or touch), and the polygon's errors as sentences.
import { Button } from "@/components/ui";
import { MAX_RADIUS_M, MIN_RADIUS_M } from "@/lib/geofences/limits";
import { corners, type Aria, type FormState } from "./geofence-form";
import type { Rings } from "./map-types";
import { NumberField } from "./number-field";
import { useCoarsePointer } from "./use-coarse-pointer";

const EDIT_HINT_MOUSE = "Drag a corner on the map to move it, drag a midpoint to add a corner; right-click a corner (or click it, then Remove corner) to remove it.";
const EDIT_HINT_TOUCH = "Drag a corner on the map to move it, drag a midpoint to add a corner; tap a corner, then Remove corner, to remove it.";
const DRAW_HINT_MOUSE = "Click each corner on the map, then the first corner again (or Finish) to close the polygon.";
const DRAW_HINT_TOUCH = "Tap each corner on the map, then the first corner again (or Finish) to close the polygon.";

const polygonSize = (rings: Rings) =>
  `A polygon of ${corners([rings[0]!])} corners${rings.length > 1 ? ` with ${rings.length - 1} hole${rings.length > 2 ? "s" : ""} (kept as they are)` : ""}.`;

export function ShapeFields({
  form,
  drawing,
  hasDraft,
  onToggleDrawing,
  onPickShape,
  update,
  onTyped,
  err,
  aria,
  polygonErrors,
}: {
  form: FormState;
  drawing: boolean;
  hasDraft: boolean;
  onToggleDrawing: () => void;
  onPickShape: (shape: "circle" | "polygon") => void;
  update: (patch: Partial<FormState>) => void;
  /** A typed value is complete (the field lost focus): the map frames the circle. */
  onTyped: () => void;
  err: (k: string) => string | null;
  aria: Aria;
  polygonErrors: string[];
}) {
  const touch = useCoarsePointer();
  return (
    <fieldset className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <legend className="text-sm font-medium text-slate-800">Shape</legend>
        <Button
          variant="secondary"
          size="sm"
          onClick={onToggleDrawing}
          aria-pressed={drawing}
        >
          {drawing ? "Cancel drawing" : hasDraft ? "Redraw on map" : "Draw on map"}
        </Button>
      </div>
      <div className="flex gap-4" role="radiogroup" aria-label="Shape">
        {(["circle", "polygon"] as const).map((k) => (
          <label key={k} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name="gf-shape"
              value={k}
              checked={form.shape === k}
              onChange={() => onPickShape(k)}
              className="h-4 w-4 accent-indigo-600"
            />
            {k === "circle" ? "Circle" : "Polygon"}
          </label>
        ))}
      </div>
      {form.shape === "polygon" ? (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset" data-testid="polygon-note">
          {form.rings ? `${polygonSize(form.rings)} ${touch ? EDIT_HINT_TOUCH : EDIT_HINT_MOUSE}` : touch ? DRAW_HINT_TOUCH : DRAW_HINT_MOUSE}
        </p>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3">
            <NumberField
              id="gf-lat"
              label="Latitude"
              error={err("latitude")}
              value={form.latitude}
              onChange={(latitude) => update({ latitude })}
              onBlur={onTyped}
              step="any"
              aria={aria("gf-lat", "latitude")}
            />
            <NumberField
              id="gf-lon"
              label="Longitude"
              error={err("longitude")}
              value={form.longitude}
              onChange={(longitude) => update({ longitude })}
              onBlur={onTyped}
              step="any"
              aria={aria("gf-lon", "longitude")}
            />
          </div>
          <NumberField
            id="gf-radius"
            label="Radius (metres)"
            hint={`${MIN_RADIUS_M} to ${MAX_RADIUS_M.toLocaleString("en")} m`}
            error={err("radius")}
            value={form.radius}
            onChange={(radius) => update({ radius })}
            onBlur={onTyped}
            min={MIN_RADIUS_M}
            max={MAX_RADIUS_M}
            step={1}
            aria={aria("gf-radius", "radius", true)}
          />
        </>
      )}
      {polygonErrors.length > 0 ? (
        <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200 ring-inset" data-testid="polygon-errors">
          <ul className="list-disc space-y-1 pl-4">
            {polygonErrors.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}
