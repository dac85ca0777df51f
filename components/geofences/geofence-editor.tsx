"use client";
// The geofence editor: a list (or the selected geofence's form) beside a large map. The map draws and edits the
// shape; the form holds the same values, so everything the mouse does can also be typed.
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  createGeofenceAction,
  deleteGeofenceAction,
  updateGeofenceAction,
} from "@/lib/geofences/actions";
import { useVisibleRefresh } from "@/components/live/visible-refresh";
import { Button, PageHeader } from "@/components/ui";
import type { MapConfig } from "@/lib/config/map";
import type { Geofence } from "@/lib/geofences/schemas";
import type { TrackableSummary } from "@/lib/trackables/summaries";
import { GeofenceActivity } from "./geofence-activity";
import { useFieldErrors } from "./field-errors";
import { EMPTY, byName, draftOf, formErrorsOf, formOf, mapGeofencesOf, mapTrackablesOf, requestOf, shapeOf, type FormState } from "./geofence-form";
import { GeofenceList } from "./geofence-list";
import { GeofencePanel } from "./geofence-panel";
import { GeofenceMap, type Rings, type Shape } from "./index";
import { useSelectionUrl } from "./selection-url";

export function GeofenceEditor({
  config,
  geofences,
  trackables,
  enterprise,
  canWrite,
}: {
  config: MapConfig;
  geofences: Geofence[];
  trackables: TrackableSummary[];
  enterprise: boolean;
  /** The user's role may create, change and delete geofences; without it the editor only shows them. */
  canWrite: boolean;
}) {
  const searchParams = useSearchParams();
  // The editor owns the list between server renders: saves and deletes update it from the action's answer, so the
  // page never needs a refresh (which would also re-fit the map) after its own writes.
  const [list, setList] = useState(geofences);
  useEffect(() => setList(geofences), [geofences]);
  const wantedId = searchParams.get("geofence");
  const initialNew = searchParams.get("new") === "1";
  const initial = wantedId ? (geofences.find((g) => g.id === wantedId) ?? null) : null;
  // The saved version of the selected geofence (null while creating or with nothing selected).
  const [saved, setSaved] = useState<Geofence | null>(initial);
  const [creating, setCreating] = useState(initialNew && !initial);
  const [form, setForm] = useState<FormState | null>(initial ? formOf(initial) : initialNew ? EMPTY : null);
  const [baseline, setBaseline] = useState(() => JSON.stringify(initial ? formOf(initial) : EMPTY));
  const [drawing, setDrawing] = useState<"circle" | "polygon" | null>(initialNew && !initial ? "circle" : null);
  const [overviewKey, setOverviewKey] = useState(0);
  const [focusKey, setFocusKey] = useState(0);
  const errors = useFieldErrors();
  const { setFieldErrors, clear, clearFor } = errors;
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  // Live: the layout's data (occupant counts, trackables' positions) is fetched again every 5 s while the tab is
  // visible. Only the list and the map's other layers take it; the form and the map's view are left alone.
  useVisibleRefresh(5_000);

  const dirty = form !== null && JSON.stringify(form) !== baseline;
  const draft = draftOf(form);
  const selectedId = saved?.id ?? null;

  // Links followed while the editor is open (another ?geofence=<id>, the plain /geofences of the nav) change the
  // selection; the editor's own URL updates are not followed back.
  const setUrl = useSelectionUrl(({ id, isNew }) => {
    if (id && id !== selectedId && list.some((g) => g.id === id)) select(id);
    else if (!id && !isNew && (selectedId || creating)) close(true);
  });

  function reset(next: { saved: Geofence | null; creating: boolean; form: FormState | null }) {
    setSaved(next.saved);
    setCreating(next.creating);
    setForm(next.form);
    setBaseline(JSON.stringify(next.form ?? EMPTY));
    setFieldErrors({});
    setFormError(null);
    setNotice(null);
  }

  // Switching away from unsaved edits asks first (a native confirm: it blocks, and is announced by screen readers).
  const mayLeave = () => !dirty || window.confirm("Discard your unsaved changes to this geofence?");

  function select(id: string) {
    const g = list.find((x) => x.id === id);
    if (!g || (g.id !== selectedId && !mayLeave())) return;
    reset({ saved: g, creating: false, form: formOf(g) });
    setDrawing(null);
    setFocusKey((k) => k + 1);
    setUrl(`?geofence=${g.id}`);
  }

  function startNew() {
    if (!mayLeave()) return;
    reset({ saved: null, creating: true, form: EMPTY });
    setDrawing("circle");
    setUrl("?new=1");
  }

  function close(force = false) {
    if (!force && !mayLeave()) return;
    reset({ saved: null, creating: false, form: null });
    setDrawing(null);
    setOverviewKey((k) => k + 1);
    setUrl("");
  }

  // An error goes as soon as its field is changed (the server checks again on save).
  const update = (patch: Partial<FormState>) => {
    setForm((f) => (f ? { ...f, ...patch } : f));
    clearFor(patch);
  };
  const onDraftChange = useCallback((s: Shape) => {
    setForm((f) => (f ? { ...f, latitude: String(s.latitude), longitude: String(s.longitude), radius: String(s.radius) } : f));
    clear(["latitude", "longitude", "radius"]);
  }, [clear]);
  const onPolygonChange = useCallback((rings: Rings) => {
    setForm((f) => (f ? { ...f, shape: "polygon", rings } : f));
    clear(["geometry"]);
  }, [clear]);
  const onDrawEnd = useCallback(() => {
    setDrawing(null);
    requestAnimationFrame(() => nameRef.current?.focus());
  }, []);
  const onDrawCancel = useCallback(() => setDrawing(null), []);

  function pickShape(shape: "circle" | "polygon") {
    if (!form || form.shape === shape) return;
    update({ shape });
    if (shape === "polygon") setDrawing(form.rings ? null : "polygon");
    else setDrawing(shapeOf(form) ? null : "circle");
  }

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (!form) return;
    const request = requestOf(form, { saved, creating, enterprise });
    if ("errors" in request) {
      setFieldErrors(request.errors);
      setFormError("Check the highlighted fields.");
      return;
    }
    const body = request.body;
    setPending(true);
    setNotice(null);
    try {
      const result = saved ? await updateGeofenceAction(saved.id, body) : await createGeofenceAction(body);
      if (!result.ok) {
        setFieldErrors(formErrorsOf(result.fieldErrors));
        setFormError(result.error);
        return;
      }
      const wasCreating = creating;
      reset({ saved: result.data, creating: false, form: formOf(result.data) });
      setNotice(wasCreating ? "Geofence created." : "Changes saved.");
      setUrl(`?geofence=${result.data.id}`);
      const savedGeofence = result.data;
      setList((l) => [...l.filter((g) => g.id !== savedGeofence.id), savedGeofence].sort(byName));
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    if (!saved) return;
    const result = await deleteGeofenceAction(saved.id);
    if (!result.ok) {
      setFormError(result.error);
      return;
    }
    const id = saved.id;
    close(true);
    setList((l) => l.filter((g) => g.id !== id));
  }

  const mapGeofences = useMemo(() => mapGeofencesOf(list), [list]);
  const mapTrackables = useMemo(() => mapTrackablesOf(trackables), [trackables]);

  return (
    <>
      <PageHeader
        title="Geofences"
        description="Circles and polygons that record geofence.entry, geofence.exit and geofence.dwell events when your trackables cross them."
        actions={
          canWrite ? (
            <Button onClick={startNew} disabled={drawing !== null}>
              New geofence
            </Button>
          ) : undefined
        }
      />
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="order-1 h-[55vh] min-h-80 lg:sticky lg:top-8 lg:order-2 lg:h-[calc(100vh-11rem)] lg:min-w-0 lg:flex-1">
          <GeofenceMap
            config={config}
            geofences={mapGeofences}
            trackables={mapTrackables}
            selectedId={selectedId}
            draft={draft}
            drawing={drawing}
            focusKey={focusKey}
            overviewKey={overviewKey}
            onSelect={select}
            onDraftChange={onDraftChange}
            onPolygonChange={onPolygonChange}
            onDrawEnd={onDrawEnd}
            onDrawCancel={onDrawCancel}
          />
        </div>

        <div className="order-2 lg:order-1 lg:w-[23rem] lg:shrink-0">
          {form === null ? (
            <GeofenceList geofences={list} onSelect={select} onNew={canWrite ? startNew : undefined} />
          ) : (
            <GeofencePanel
              form={form}
              saved={saved}
              creating={creating}
              trackables={trackables}
              enterprise={enterprise}
              canWrite={canWrite}
              nameRef={nameRef}
              drawing={drawing !== null}
              hasDraft={draft !== null}
              errors={errors}
              formError={formError}
              notice={notice}
              dirty={dirty}
              pending={pending}
              inside={list.find((g) => g.id === selectedId)?.occupantCount ?? saved?.occupantCount ?? 0}
              update={update}
              onSave={save}
              onClose={() => close()}
              onDelete={remove}
              onPickShape={pickShape}
              onTyped={() => setFocusKey((k) => k + 1)}
              onToggleDrawing={() => setDrawing((d) => (d ? null : form.shape))}
            />
          )}
          {form !== null && saved ? <GeofenceActivity geofenceId={saved.id} version={saved.updatedAt} /> : null}
        </div>
      </div>
    </>
  );
}

