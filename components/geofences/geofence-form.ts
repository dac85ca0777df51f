// The geofence editor's form: its values as typed (strings, so a half-typed number stays), how a saved geofence fills
// it, the shape it describes for the map, and the names its errors are given in.
import type { Geofence } from "@/lib/geofences/schemas";
import { MAX_RADIUS_M, MIN_RADIUS_M } from "@/lib/geofences/limits";
import type { TrackableSummary } from "@/lib/trackables/summaries";
import type { Draft, MapGeofence, MapTrackable, Rings, Shape } from "./map-types";
import type { SecretChange } from "@/components/webhooks/secret-control";

export interface FormState {
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

export const EMPTY: FormState = {
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

export const formOf = (g: Geofence): FormState => ({
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

export const num = (s: string): number | null => (s.trim() === "" ? null : Number(s));

export function shapeOf(f: FormState | null): Shape | null {
  if (!f) return null;
  const [lat, lon, r] = [num(f.latitude), num(f.longitude), num(f.radius)];
  if (lat === null || lon === null || r === null || !Number.isFinite(lat + lon + r)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180 || r < MIN_RADIUS_M || r > MAX_RADIUS_M) return null;
  return { latitude: lat, longitude: lon, radius: r };
}

export function draftOf(f: FormState | null): Draft | null {
  if (!f) return null;
  if (f.shape === "polygon") return f.rings ? { kind: "polygon", rings: f.rings } : null;
  const s = shapeOf(f);
  return s ? { kind: "circle", ...s } : null;
}

// The names errors are given in: "Exit buffer must be between 0 and 10000 metres."
export const LABELS: Record<string, string> = {
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

export const corners = (rings: Rings) => rings.reduce((n, ring) => n + Math.max(0, ring.length - 1), 0);

export const byName = (a: Geofence, b: Geofence) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
const metres = (r: number) => `${Math.round(r).toLocaleString("en-GB")} m`;
export const sizeLabel = (g: Geofence) => (g.shape === "polygon" && g.geometry ? `Polygon, ${corners(g.geometry.coordinates)} corners` : metres(g.radius));
export const assignedLabel = (g: Geofence) =>
  g.trackableIds === null ? "All trackables" : `${g.trackableIds.length} trackable${g.trackableIds.length === 1 ? "" : "s"}`;


export type Aria = (id: string, k: string, hint?: boolean) => { "aria-invalid": boolean | undefined; "aria-describedby": string | undefined };

/**
 * The create or update body of a form, or the fields a save cannot go without (checked here, before the server checks
 * everything). A polygon's rings are sent only when they changed; webhook fields only on the Enterprise plan.
 */
export function requestOf(
  form: FormState,
  { saved, creating, enterprise }: { saved: Geofence | null; creating: boolean; enterprise: boolean },
): { body: Record<string, unknown> } | { errors: Record<string, string> } {
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
  if (Object.keys(local).length > 0) return { errors: local };
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
  return { body };
}

/** A failed save's field errors by form field: trackableIds[3] is shown on the list of trackables; geometry paths keep
 * their ring and position. */
export const formErrorsOf = (fieldErrors: Record<string, string>) =>
  Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k.startsWith("trackableIds") ? "trackableIds" : k, v]));

/** The geofences as the map draws them. */
export const mapGeofencesOf = (list: Geofence[]): MapGeofence[] =>
  list.map(({ id, name, latitude, longitude, radius, geometry }) => ({ id, name, latitude, longitude, radius, rings: geometry?.coordinates ?? null }));

/** The trackables the map shows at their last position (those without one are left out). */
export const mapTrackablesOf = (trackables: TrackableSummary[]): MapTrackable[] =>
  trackables.flatMap((t) => (t.lastPosition ? [{ id: t.id, name: t.name, latitude: t.lastPosition.latitude, longitude: t.lastPosition.longitude }] : []));
