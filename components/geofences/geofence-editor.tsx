"use client";
// The geofence editor: a list (or the selected geofence's form) beside a large map. The map draws and edits the
// shape; the form holds the same values, so everything the mouse does can also be typed.
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  createGeofenceAction,
  deleteGeofenceAction,
  recoverGeofenceAction,
  rotateGeofenceSecretAction,
  sendTestWebhookAction,
  updateGeofenceAction,
} from "@/lib/geofences/actions";
import { Recover, RotateSecret } from "@/components/webhooks/endpoint-tools";
import { Alert, Badge, Button, Card, EmptyState, Field, PageHeader, cx, inputClass } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { MapConfig } from "@/lib/config/map";
import type { Geofence } from "@/lib/geofences/schemas";
import type { TrackableSummary } from "@/lib/trackables/summaries";
import { GeofenceActivity } from "./geofence-activity";
import { fieldSentence, polygonSentences } from "./geofence-messages";
import { GeofenceMap, type Draft, type Rings, type Shape } from "./index";
import { SecretControl, type SecretChange } from "@/components/webhooks/secret-control";
import { MAX_RADIUS_M, MIN_RADIUS_M } from "@/lib/geofences/limits";

interface FormState {
  name: string;
  shape: "circle" | "polygon";
  latitude: string;
  longitude: string;
  radius: string;
  /** A polygon's rings (GeoJSON [lon, lat]), or null while none is drawn. */
  rings: Rings | null;
  exitBuffer: string;
  debounceSeconds: string;
  dwellSeconds: string;
  /** Empty: no limit. */
  maxAccuracy: string;
  tag: string;
  externalId: string;
  /** The metadata object as JSON text; empty for {}. */
  metadata: string;
  notificationType: "none" | "webhook";
  webhookUrl: string;
  secret: SecretChange;
  allTrackables: boolean;
  trackableIds: string[];
}

const EMPTY: FormState = {
  name: "",
  shape: "circle",
  latitude: "",
  longitude: "",
  radius: "",
  rings: null,
  exitBuffer: "0",
  debounceSeconds: "0",
  dwellSeconds: "0",
  maxAccuracy: "",
  tag: "",
  externalId: "",
  metadata: "",
  notificationType: "none",
  webhookUrl: "",
  secret: { mode: "keep" },
  allTrackables: true,
  trackableIds: [],
};

const formOf = (g: Geofence): FormState => ({
  name: g.name,
  shape: g.shape,
  latitude: String(g.latitude),
  longitude: String(g.longitude),
  radius: String(g.radius),
  rings: g.geometry?.coordinates ?? null,
  exitBuffer: String(g.exitBuffer),
  debounceSeconds: String(g.debounceSeconds),
  dwellSeconds: String(g.dwellSeconds),
  maxAccuracy: g.maxAccuracy === null ? "" : String(g.maxAccuracy),
  tag: g.tag ?? "",
  externalId: g.externalId ?? "",
  metadata: Object.keys(g.metadata).length === 0 ? "" : JSON.stringify(g.metadata, null, 2),
  notificationType: g.notificationType,
  webhookUrl: g.webhookUrl ?? "",
  secret: { mode: "keep" },
  allTrackables: g.trackableIds === null,
  trackableIds: g.trackableIds ?? [],
});

const num = (s: string): number | null => (s.trim() === "" ? null : Number(s));

function shapeOf(f: FormState | null): Shape | null {
  if (!f) return null;
  const [lat, lon, r] = [num(f.latitude), num(f.longitude), num(f.radius)];
  if (lat === null || lon === null || r === null || !Number.isFinite(lat + lon + r)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180 || r < MIN_RADIUS_M || r > MAX_RADIUS_M) return null;
  return { latitude: lat, longitude: lon, radius: r };
}

function draftOf(f: FormState | null): Draft | null {
  if (!f) return null;
  if (f.shape === "polygon") return f.rings ? { kind: "polygon", rings: f.rings } : null;
  const s = shapeOf(f);
  return s ? { kind: "circle", ...s } : null;
}

// The names errors are given in: "Exit buffer must be between 0 and 10000 metres."
const LABELS: Record<string, string> = {
  name: "Name",
  latitude: "Latitude",
  longitude: "Longitude",
  radius: "Radius",
  trackableIds: "Trackables",
  notificationType: "Notification type",
  webhookUrl: "Webhook URL",
  webhookSecret: "Signing secret",
  exitBuffer: "Exit buffer",
  debounceSeconds: "Debounce",
  dwellSeconds: "Dwell time",
  maxAccuracy: "Maximum accuracy",
  tag: "Tag",
  externalId: "External ID",
  metadata: "Metadata",
};

const corners = (rings: Rings) => rings.reduce((n, ring) => n + Math.max(0, ring.length - 1), 0);

const byName = (a: Geofence, b: Geofence) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
const metres = (r: number) => `${Math.round(r).toLocaleString("en-GB")} m`;
const sizeLabel = (g: Geofence) => (g.shape === "polygon" && g.geometry ? `Polygon, ${corners(g.geometry.coordinates)} corners` : metres(g.radius));
const assignedLabel = (g: Geofence) =>
  g.trackableIds === null ? "All trackables" : `${g.trackableIds.length} trackable${g.trackableIds.length === 1 ? "" : "s"}`;

type TestResult = { ok: boolean; message: string; deliveryId?: string };

export function GeofenceEditor({
  config,
  geofences,
  trackables,
  enterprise,
}: {
  config: MapConfig;
  geofences: Geofence[];
  trackables: TrackableSummary[];
  enterprise: boolean;
}) {
  const searchParams = useSearchParams();
  const router = useRouter();
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
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [testEvent, setTestEvent] = useState<"entry" | "exit">("entry");
  const [testPending, setTestPending] = useState(false);
  const [testResult, setTestResult] = useState<TestResult | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  // Live: the layout's data (occupant counts, trackables' positions) is fetched again every 5 s while the tab is
  // visible. Only the list and the map's other layers take it; the form and the map's view are left alone.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, 5_000);
    return () => window.clearInterval(timer);
  }, [router]);

  const dirty = form !== null && JSON.stringify(form) !== baseline;
  const draft = draftOf(form);
  const selectedId = saved?.id ?? null;

  const setUrl = (query: string) => window.history.replaceState(null, "", `/geofences${query}`);

  // Links followed while the editor is open (another ?geofence=<id>, the plain /geofences of the nav) change the
  // selection; the editor's own URL updates (replaceState) already match it and change nothing.
  const isNew = searchParams.get("new") === "1";
  useEffect(() => {
    if (wantedId && wantedId !== selectedId && list.some((g) => g.id === wantedId)) select(wantedId);
    else if (!wantedId && !isNew && (selectedId || creating)) close(true);
  }, [wantedId, isNew]); // only when the URL changes, not on every edit

  function reset(next: { saved: Geofence | null; creating: boolean; form: FormState | null }) {
    setSaved(next.saved);
    setCreating(next.creating);
    setForm(next.form);
    setBaseline(JSON.stringify(next.form ?? EMPTY));
    setFieldErrors({});
    setFormError(null);
    setNotice(null);
    setTestResult(null);
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
  const clearErrors = (keys: string[]) =>
    setFieldErrors((e) => {
      const stale = Object.keys(e).filter((k) => keys.some((f) => k === f || k.startsWith(`${f}.`) || k.startsWith(`${f}[`)));
      if (stale.length === 0) return e;
      const next = { ...e };
      for (const k of stale) delete next[k];
      return next;
    });
  const FIELD_OF: Record<string, string[]> = { secret: ["webhookSecret"], allTrackables: ["trackableIds"], rings: ["geometry"], shape: ["geometry", "shape", "latitude", "longitude", "radius"] };
  const update = (patch: Partial<FormState>) => {
    setForm((f) => (f ? { ...f, ...patch } : f));
    clearErrors(Object.keys(patch).flatMap((k) => FIELD_OF[k] ?? [k]));
  };
  const onDraftChange = useCallback((s: Shape) => {
    setForm((f) => (f ? { ...f, latitude: String(s.latitude), longitude: String(s.longitude), radius: String(s.radius) } : f));
    setFieldErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !["latitude", "longitude", "radius"].includes(k))));
  }, []);
  const onPolygonChange = useCallback((rings: Rings) => {
    setForm((f) => (f ? { ...f, shape: "polygon", rings } : f));
    setFieldErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== "geometry" && !k.startsWith("geometry."))));
  }, []);
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
    const local: Record<string, string> = {};
    const polygon = form.shape === "polygon";
    const numbers = { latitude: num(form.latitude), longitude: num(form.longitude), radius: num(form.radius) };
    if (!polygon) {
      for (const [k, v] of Object.entries(numbers)) {
        if (v === null) local[k] = "is required";
        else if (!Number.isFinite(v)) local[k] = "must be a number";
      }
    } else if (!form.rings) local.geometry = "required: draw it on the map (click each corner, then the first one again)";
    const noise = {
      exitBuffer: num(form.exitBuffer) ?? 0,
      debounceSeconds: num(form.debounceSeconds) ?? 0,
      dwellSeconds: num(form.dwellSeconds) ?? 0,
      maxAccuracy: num(form.maxAccuracy),
    };
    for (const [k, v] of Object.entries(noise)) if (v !== null && !Number.isFinite(v)) local[k] = "must be a number";
    let metadata: unknown = {};
    if (form.metadata.trim() !== "") {
      try {
        metadata = JSON.parse(form.metadata);
      } catch {
        metadata = undefined;
      }
      if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) local.metadata = 'must be a JSON object, like {"region": "north"}';
    }
    if (form.secret.mode === "replace" && form.secret.value.length === 0) local.webhookSecret = "Enter the new secret, or cancel";
    if (Object.keys(local).length > 0) {
      setFieldErrors(local);
      setFormError("Check the highlighted fields.");
      return;
    }
    const url = form.webhookUrl.trim();
    // A polygon's rings are sent only when they changed: saving other fields never rewrites them (holes included).
    const ringsUnchanged = saved?.shape === "polygon" && JSON.stringify(form.rings) === JSON.stringify(saved.geometry?.coordinates ?? null);
    const shapeFields = polygon
      ? ringsUnchanged
        ? {}
        : { ...(saved?.shape === "polygon" ? {} : { shape: "polygon" }), geometry: { type: "Polygon", coordinates: form.rings } }
      : { ...numbers, ...(saved?.shape === "polygon" ? { shape: "circle" } : {}) };
    const body: Record<string, unknown> = {
      name: form.name,
      ...shapeFields,
      ...noise,
      tag: form.tag.trim() === "" ? null : form.tag.trim(),
      externalId: form.externalId.trim() === "" ? null : form.externalId.trim(),
      metadata,
      trackableIds: form.allTrackables ? null : form.trackableIds,
      ...(enterprise
        ? {
            notificationType: form.notificationType,
            webhookUrl: url === "" ? null : url,
            ...(form.secret.mode === "replace" ? { webhookSecret: form.secret.value } : {}),
            ...(form.secret.mode === "remove" ? { webhookSecret: null } : {}),
          }
        : creating
          ? { notificationType: "none" }
          : {}),
    };
    setPending(true);
    setNotice(null);
    try {
      const result = saved ? await updateGeofenceAction(saved.id, body) : await createGeofenceAction(body);
      if (!result.ok) {
        // trackableIds[3] is shown on the list of trackables; geometry paths keep their ring and position.
        setFieldErrors(
          Object.fromEntries(Object.entries(result.fieldErrors).map(([k, v]) => [k.startsWith("trackableIds") ? "trackableIds" : k, v])),
        );
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

  async function sendTest() {
    if (!saved) return;
    setTestPending(true);
    setTestResult(null);
    try {
      const result = await sendTestWebhookAction(saved.id, { eventType: testEvent });
      if (!result.ok) setTestResult({ ok: false, message: result.error });
      else setTestResult({ ok: result.data.answer.success, message: result.data.answer.message, deliveryId: result.data.deliveryId });
    } finally {
      setTestPending(false);
    }
  }

  const mapGeofences = useMemo(
    () => list.map(({ id, name, latitude, longitude, radius, geometry }) => ({ id, name, latitude, longitude, radius, rings: geometry?.coordinates ?? null })),
    [list],
  );
  const mapTrackables = useMemo(
    () => trackables.flatMap((t) => (t.lastPosition ? [{ id: t.id, name: t.name, latitude: t.lastPosition.latitude, longitude: t.lastPosition.longitude }] : [])),
    [trackables],
  );

  const err = (k: string) => (fieldErrors[k] ? fieldSentence(LABELS[k] ?? k, fieldErrors[k]) : null);
  const polygonErrors = polygonSentences(fieldErrors);
  const aria = (id: string, k: string, hint = false) => ({
    "aria-invalid": err(k) ? true : undefined,
    "aria-describedby": err(k) ? `${id}-error` : hint ? `${id}-hint` : undefined,
  });

  return (
    <>
      <PageHeader
        title="Geofences"
        description="Circles and polygons that record geofence.entry, geofence.exit and geofence.dwell events when your trackables cross them."
        actions={
          <Button onClick={startNew} disabled={drawing !== null}>
            New geofence
          </Button>
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
            <GeofenceList geofences={list} onSelect={select} onNew={startNew} />
          ) : (
            <Card className="p-5">
              <div className="flex items-center justify-between gap-2">
                <h2 className="text-base font-semibold text-slate-900">{creating ? "New geofence" : saved?.name}</h2>
                <Button variant="ghost" size="sm" onClick={() => close()}>
                  ← All geofences
                </Button>
              </div>
              {creating && !draft && !drawing ? (
                <p className="mt-2 text-sm text-slate-600">
                  {form.shape === "circle" ? "Draw the circle on the map, or type its centre and radius below." : "Draw the polygon on the map."}
                </p>
              ) : null}
              <form onSubmit={save} noValidate className="mt-4 space-y-5" aria-label="Geofence">
                {formError ? <Alert>{formError}</Alert> : null}
                {notice && !dirty ? <Alert tone="success">{notice}</Alert> : null}
                <Field id="gf-name" label="Name" error={err("name")}>
                  <input
                    ref={nameRef}
                    id="gf-name"
                    className={inputClass}
                    value={form.name}
                    maxLength={100}
                    onChange={(e) => update({ name: e.target.value })}
                    {...aria("gf-name", "name")}
                  />
                </Field>

                <fieldset className="space-y-3">
                  <div className="flex items-center justify-between gap-2">
                    <legend className="text-sm font-medium text-slate-800">Shape</legend>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setDrawing((d) => (d ? null : form.shape))}
                      aria-pressed={drawing !== null}
                    >
                      {drawing ? "Cancel drawing" : draft ? "Redraw on map" : "Draw on map"}
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
                          onChange={() => pickShape(k)}
                          className="h-4 w-4 accent-indigo-600"
                        />
                        {k === "circle" ? "Circle" : "Polygon"}
                      </label>
                    ))}
                  </div>
                  {form.shape === "polygon" ? (
                    <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset" data-testid="polygon-note">
                      {form.rings
                        ? `A polygon of ${corners([form.rings[0]!])} corners${form.rings.length > 1 ? ` with ${form.rings.length - 1} hole${form.rings.length > 2 ? "s" : ""} (kept as they are)` : ""}. Drag a corner on the map to move it, drag a midpoint to add a corner, right-click a corner to remove it.`
                        : "Click each corner on the map, then the first corner again (or Finish) to close the polygon."}
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
                          onBlur={() => setFocusKey((k) => k + 1)}
                          step="any"
                          aria={aria("gf-lat", "latitude")}
                        />
                        <NumberField
                          id="gf-lon"
                          label="Longitude"
                          error={err("longitude")}
                          value={form.longitude}
                          onChange={(longitude) => update({ longitude })}
                          onBlur={() => setFocusKey((k) => k + 1)}
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
                        onBlur={() => setFocusKey((k) => k + 1)}
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

                <NoiseSettings key={saved?.id ?? "new"} form={form} update={update} err={err} aria={aria} />

                <AssignedTrackables
                  trackables={trackables}
                  all={form.allTrackables}
                  ids={form.trackableIds}
                  error={err("trackableIds")}
                  onChange={(allTrackables, trackableIds) => update({ allTrackables, trackableIds })}
                />

                <fieldset className="space-y-3" disabled={!enterprise}>
                  <legend className="text-sm font-medium text-slate-800">Notifications</legend>
                  {!enterprise ? (
                    <Alert tone="info">
                      Webhooks need the Enterprise plan. Your geofences keep working on the free plan; on Enterprise, every
                      entry and exit is also sent to your endpoint as a signed webhook.
                    </Alert>
                  ) : null}
                  <div className="flex gap-4" role="radiogroup" aria-label="Notification type">
                    {(["none", "webhook"] as const).map((t) => (
                      <label key={t} className="flex items-center gap-2 text-sm text-slate-800">
                        <input
                          type="radio"
                          name="gf-notification"
                          value={t}
                          checked={form.notificationType === t}
                          onChange={() => update({ notificationType: t })}
                          className="h-4 w-4 accent-indigo-600"
                        />
                        {t === "none" ? "None" : "Webhook"}
                      </label>
                    ))}
                  </div>
                  {err("notificationType") ? <p className="text-xs text-red-600">{err("notificationType")}</p> : null}
                  {form.notificationType === "webhook" || form.webhookUrl !== "" ? (
                    <>
                      <Field
                        id="gf-url"
                        label="Webhook URL"
                        hint="Receives geofence.entry and geofence.exit as signed JSON POSTs."
                        error={err("webhookUrl")}
                      >
                        <input
                          id="gf-url"
                          type="url"
                          className={cx(inputClass, "font-mono")}
                          placeholder="https://example.com/webhooks/fenceline"
                          value={form.webhookUrl}
                          onChange={(e) => update({ webhookUrl: e.target.value })}
                          {...aria("gf-url", "webhookUrl", true)}
                        />
                      </Field>
                      <SecretControl
                        id="gf-secret"
                        isSet={saved?.webhookSecretSet ?? false}
                        change={form.secret}
                        error={err("webhookSecret")}
                        onChange={(secret) => update({ secret })}
                      />
                    </>
                  ) : null}
                </fieldset>

                <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
                  <Button type="submit" disabled={pending || drawing !== null}>
                    {pending ? "Saving…" : creating ? "Create geofence" : "Save changes"}
                  </Button>
                  {saved ? (
                    <ConfirmButton label="Delete" title={`Delete “${saved.name}”?`} confirmLabel="Delete geofence" size="md" onConfirm={remove}>
                      The geofence and its assignments are removed; no exit events are sent. Its delivery history is kept.
                    </ConfirmButton>
                  ) : null}
                  {dirty && saved ? <span className="text-xs text-amber-700">Unsaved changes</span> : null}
                </div>
              </form>

              {saved && enterprise && saved.notificationType === "webhook" ? (
                <TestWebhook
                  geofenceId={saved.id}
                  event={testEvent}
                  onEvent={setTestEvent}
                  pending={testPending}
                  disabled={dirty}
                  result={testResult}
                  onSend={sendTest}
                />
              ) : null}
              {saved && enterprise && saved.notificationType === "webhook" ? (
                <div className="mt-5 grid gap-4" key={saved.id}>
                  <RotateSecret idPrefix="gf" hasSecret={saved.webhookSecretSet} rotate={(input) => rotateGeofenceSecretAction(saved.id, input)} />
                  <Recover
                    idPrefix="gf"
                    target="geofence's webhook"
                    historyHref={`/deliveries?geofence=${saved.id}`}
                    recover={(input) => recoverGeofenceAction(saved.id, input)}
                  />
                </div>
              ) : null}
              {saved && enterprise ? (
                <p className="mt-4 text-sm">
                  <Link className="font-medium text-indigo-700 hover:underline" href={`/deliveries?geofence=${saved.id}`}>
                    Delivery history of this geofence →
                  </Link>
                </p>
              ) : null}
            </Card>
          )}
          {form !== null && saved ? <GeofenceActivity geofenceId={saved.id} version={saved.updatedAt} /> : null}
        </div>
      </div>
    </>
  );
}

type Aria = (id: string, k: string, hint?: boolean) => { "aria-invalid": boolean | undefined; "aria-describedby": string | undefined };

/** A labelled number input of the form: whole numbers get a numeric keypad, others (step "any") a decimal one. */
function NumberField(props: {
  id: string;
  label: string;
  hint?: string;
  error: string | null;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  min?: number;
  max?: number;
  step: number | "any";
  placeholder?: string;
  aria: ReturnType<Aria>;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      <input
        id={props.id}
        type="number"
        min={props.min}
        max={props.max}
        step={props.step}
        inputMode={props.step === 1 ? "numeric" : "decimal"}
        placeholder={props.placeholder}
        className={inputClass}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
        {...props.aria}
      />
    </Field>
  );
}

/** The GPS-noise settings and the labels, each with what it does in plain words. */
function NoiseSettings({
  form,
  update,
  err,
  aria,
}: {
  form: FormState;
  update: (patch: Partial<FormState>) => void;
  err: (k: string) => string | null;
  aria: Aria;
}) {
  const number = (id: string, key: "exitBuffer" | "debounceSeconds" | "dwellSeconds" | "maxAccuracy", label: string, hint: string, opts: { max: number; placeholder?: string }) => (
    <NumberField
      id={id}
      label={label}
      hint={hint}
      error={err(key)}
      value={form[key]}
      onChange={(value) => update({ [key]: value })}
      min={0}
      max={opts.max}
      step={1}
      placeholder={opts.placeholder}
      aria={aria(id, key, true)}
    />
  );
  const settings = [
    Number(form.exitBuffer) > 0 ? `exit buffer ${form.exitBuffer} m` : null,
    Number(form.debounceSeconds) > 0 ? `debounce ${form.debounceSeconds} s` : null,
    Number(form.dwellSeconds) > 0 ? `dwell after ${form.dwellSeconds} s` : null,
    form.maxAccuracy.trim() !== "" ? `accuracy ≤ ${form.maxAccuracy} m` : null,
    form.tag.trim() !== "" ? `tag ${form.tag.trim()}` : null,
  ].filter((x) => x !== null);
  const invalid = ["exitBuffer", "debounceSeconds", "dwellSeconds", "maxAccuracy", "tag", "externalId", "metadata"].some((k) => err(k) !== null);
  const [open, setOpen] = useState(settings.length > 0 || form.externalId !== "" || form.metadata !== "");
  useEffect(() => {
    if (invalid) setOpen(true);
  }, [invalid]);
  return (
    // Collapsed while everything is at its default, so the form stays short; open when a value is set or wrong.
    <details className="group rounded-md border border-slate-200" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer list-none px-3 py-2 text-sm font-medium text-slate-800 marker:hidden">
        <span className="mr-1 inline-block transition-transform group-open:rotate-90" aria-hidden>
          ▸
        </span>
        GPS noise, dwell and labels
        <span className="block pl-4 text-xs font-normal text-slate-500" data-testid="noise-summary">
          {settings.length > 0 ? settings.join(" · ") : "Defaults: every crossing counts at once, no dwell events."}
        </span>
      </summary>
      <div className="space-y-5 border-t border-slate-100 px-3 pt-3 pb-4">
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">GPS noise</legend>
          <p className="text-xs text-slate-500">Positions jitter by metres. These settings stop a trackable near the edge from flapping in and out.</p>
          {number("gf-exit-buffer", "exitBuffer", "Exit buffer (metres)", "Once inside, a trackable only leaves when it is more than this far outside the edge. Entering is unchanged. 0 to 10,000; 0 = off.", { max: 10_000 })}
          {number("gf-debounce", "debounceSeconds", "Debounce (seconds)", "A crossing counts only once the trackable has stayed on the new side this long; a shorter excursion is ignored. The event keeps the time of the first point on the new side. 0 to 86,400; 0 = off.", { max: 86_400 })}
          {number("gf-dwell", "dwellSeconds", "Dwell after (seconds)", "Records geofence.dwell once per visit when a trackable has been inside this long. 0 to 604,800 (7 days); 0 = off.", { max: 604_800 })}
          {number("gf-max-accuracy", "maxAccuracy", "Maximum accuracy (metres)", "Points less accurate than this (a larger accuracy radius) are stored but neither enter nor leave this geofence. Empty = no limit; up to 100,000.", { max: 100_000, placeholder: "No limit" })}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">Labels</legend>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
            <Field id="gf-tag" label="Tag" hint="Groups geofences, e.g. depots (GET /geofences?tag=). Up to 64 characters; optional." error={err("tag")}>
              <input id="gf-tag" className={inputClass} value={form.tag} maxLength={64} onChange={(e) => update({ tag: e.target.value })} {...aria("gf-tag", "tag", true)} />
            </Field>
            <Field id="gf-external-id" label="External ID" hint="Your own identifier, unique in this workspace. Up to 128 characters; optional." error={err("externalId")}>
              <input
                id="gf-external-id"
                className={cx(inputClass, "font-mono")}
                value={form.externalId}
                maxLength={128}
                onChange={(e) => update({ externalId: e.target.value })}
                {...aria("gf-external-id", "externalId", true)}
              />
            </Field>
          </div>
          <Field id="gf-metadata" label="Metadata (JSON)" hint='A JSON object you control, up to 4 KiB, e.g. {"region": "north"}. Empty = none.' error={err("metadata")}>
            <textarea
              id="gf-metadata"
              rows={3}
              spellCheck={false}
              className={cx(inputClass, "font-mono text-xs")}
              value={form.metadata}
              onChange={(e) => update({ metadata: e.target.value })}
              {...aria("gf-metadata", "metadata", true)}
            />
          </Field>
        </fieldset>
      </div>
    </details>
  );
}

function GeofenceList({ geofences, onSelect, onNew }: { geofences: Geofence[]; onSelect: (id: string) => void; onNew: () => void }) {
  if (geofences.length === 0) {
    return (
      <EmptyState title="No geofences yet" action={<Button onClick={onNew}>Draw your first geofence</Button>}>
        Press on the map for the centre and drag out the radius, or type the coordinates.
      </EmptyState>
    );
  }
  return (
    <Card className="overflow-hidden">
      <h2 className="border-b border-slate-100 px-4 py-3 text-sm font-semibold text-slate-900">
        {geofences.length} geofence{geofences.length === 1 ? "" : "s"}
      </h2>
      <ul className="max-h-[calc(100vh-15rem)] divide-y divide-slate-100 overflow-y-auto" aria-label="Geofences">
        {geofences.map((g) => (
          <li key={g.id}>
            <button
              type="button"
              onClick={() => onSelect(g.id)}
              className="block w-full px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-none"
              data-testid="geofence-item"
            >
              <span className="block truncate text-sm font-medium text-slate-900">{g.name}</span>
              <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span>{sizeLabel(g)}</span>
                <span aria-hidden>·</span>
                <span>{g.occupantCount} inside</span>
                <span aria-hidden>·</span>
                <span>{assignedLabel(g)}</span>
                <Badge color={g.notificationType === "webhook" ? "blue" : "gray"}>
                  {g.notificationType === "webhook" ? "Webhook" : "No notifications"}
                </Badge>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function AssignedTrackables({
  trackables,
  all,
  ids,
  error,
  onChange,
}: {
  trackables: TrackableSummary[];
  all: boolean;
  ids: string[];
  error: string | null;
  onChange: (all: boolean, ids: string[]) => void;
}) {
  const toggle = (id: string, on: boolean) => onChange(false, on ? [...ids, id] : ids.filter((x) => x !== id));
  return (
    <fieldset aria-describedby={error ? "gf-trackables-error" : undefined}>
      <legend className="text-sm font-medium text-slate-800">Applies to</legend>
      <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" className="h-4 w-4 accent-indigo-600" checked={all} onChange={(e) => onChange(e.target.checked, ids)} />
        All trackables, including ones added later
      </label>
      {trackables.length === 0 ? (
        <p className="mt-2 text-xs text-slate-500">No trackables yet: create them through the API or on the Trackables page.</p>
      ) : (
        <ul className={cx("mt-2 max-h-44 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2", all && "opacity-60")}>
          {trackables.map((t) => (
            <li key={t.id}>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-indigo-600"
                  disabled={all}
                  checked={all || ids.includes(t.id)}
                  onChange={(e) => toggle(t.id, e.target.checked)}
                />
                <span className="truncate">{t.name}</span>
                <span className="text-xs text-slate-400">{t.type}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id="gf-trackables-error" role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function TestWebhook({
  geofenceId,
  event,
  onEvent,
  pending,
  disabled,
  result,
  onSend,
}: {
  geofenceId: string;
  event: "entry" | "exit";
  onEvent: (e: "entry" | "exit") => void;
  pending: boolean;
  disabled: boolean;
  result: TestResult | null;
  onSend: () => void;
}) {
  return (
    <section className="mt-5 space-y-3 border-t border-slate-100 pt-4" aria-labelledby="gf-test-title">
      <h3 id="gf-test-title" className="text-sm font-semibold text-slate-900">
        Test the webhook
      </h3>
      <p className="text-xs text-slate-500">Sends one signed delivery with this geofence, a sample beacon and a location at the centre.</p>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="gf-test-event" className="sr-only">
          Event to send
        </label>
        <select
          id="gf-test-event"
          className={cx(inputClass, "max-w-48")}
          value={event}
          onChange={(e) => onEvent(e.target.value === "exit" ? "exit" : "entry")}
        >
          <option value="entry">geofence.entry</option>
          <option value="exit">geofence.exit</option>
        </select>
        <Button variant="secondary" onClick={onSend} disabled={pending || disabled}>
          {pending ? "Sending…" : "Send test webhook"}
        </Button>
      </div>
      {disabled ? <p className="text-xs text-amber-700">Save your changes first: the test uses the saved settings.</p> : null}
      {result?.ok ? (
        <Alert tone="success">
          {result.message}.{" "}
          <Link className="font-medium underline" href={`/deliveries/${result.deliveryId}`}>
            View the delivery
          </Link>
        </Alert>
      ) : result ? (
        <Alert>
          {result.message}{" "}
          {result.deliveryId ? (
            <Link className="font-medium underline" href={`/deliveries/${result.deliveryId}`}>
              View the failed delivery
            </Link>
          ) : (
            <Link className="font-medium underline" href={`/deliveries?geofence=${geofenceId}`}>
              See this geofence’s deliveries
            </Link>
          )}
        </Alert>
      ) : null}
    </section>
  );
}
