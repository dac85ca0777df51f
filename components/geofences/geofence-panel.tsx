"use client";
// The open geofence beside the editor's map: its heading, the form (its fields, errors and actions) and, for a saved
// webhook geofence, the webhook's tools. The editor owns every value; this only lays them out.
import type { RefObject } from "react";
import { Alert, Button, Card } from "@/components/ui";
import type { Geofence } from "@/lib/geofences/schemas";
import type { TrackableSummary } from "@/lib/trackables/summaries";
import type { useFieldErrors } from "./field-errors";
import { FormActions } from "./form-actions";
import { GeofenceFields } from "./geofence-fields";
import type { FormState } from "./geofence-form";
import { GeofenceWebhookTools } from "./webhook-tools";

export function GeofencePanel({
  form,
  saved,
  creating,
  trackables,
  enterprise,
  canWrite,
  nameRef,
  drawing,
  hasDraft,
  errors,
  formError,
  notice,
  dirty,
  pending,
  inside,
  update,
  onSave,
  onClose,
  onDelete,
  onPickShape,
  onTyped,
  onToggleDrawing,
}: {
  form: FormState;
  /** The saved geofence being edited; null while creating one. */
  saved: Geofence | null;
  creating: boolean;
  trackables: TrackableSummary[];
  enterprise: boolean;
  /** The user's role may change and delete geofences: without it there are no actions. */
  canWrite: boolean;
  nameRef: RefObject<HTMLInputElement | null>;
  /** The map is drawing the shape (saving waits for it to end). */
  drawing: boolean;
  /** The form holds a shape the map can draw. */
  hasDraft: boolean;
  errors: ReturnType<typeof useFieldErrors>;
  formError: string | null;
  notice: string | null;
  dirty: boolean;
  pending: boolean;
  /** How many trackables are inside the saved geofence now. */
  inside: number;
  update: (patch: Partial<FormState>) => void;
  onSave: (e: React.FormEvent) => void;
  onClose: () => void;
  onDelete: () => Promise<void>;
  onPickShape: (shape: "circle" | "polygon") => void;
  onTyped: () => void;
  onToggleDrawing: () => void;
}) {
  return (
    <Card className="p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">{creating ? "New geofence" : saved?.name}</h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          ← All geofences
        </Button>
      </div>
      {creating && !hasDraft && !drawing ? (
        <p className="mt-2 text-sm text-slate-600">
          {form.shape === "circle" ? "Draw the circle on the map, or type its centre and radius below." : "Draw the polygon on the map."}
        </p>
      ) : null}
      <form onSubmit={onSave} noValidate className="mt-4 space-y-5" aria-label="Geofence">
        {formError ? <Alert>{formError}</Alert> : null}
        {notice && !dirty ? <Alert tone="success">{notice}</Alert> : null}
        <GeofenceFields
          form={form}
          saved={saved}
          trackables={trackables}
          enterprise={enterprise}
          nameRef={nameRef}
          drawing={drawing}
          hasDraft={hasDraft}
          update={update}
          errors={errors}
          onToggleDrawing={onToggleDrawing}
          onPickShape={onPickShape}
          onTyped={onTyped}
        />
        {canWrite ? (
          <FormActions saved={saved} inside={inside} enterprise={enterprise} pending={pending} drawing={drawing} dirty={dirty} onDelete={onDelete} />
        ) : null}
      </form>
      {saved && enterprise && canWrite ? <GeofenceWebhookTools key={`${saved.id}:${saved.updatedAt}`} geofence={saved} dirty={dirty} /> : null}
    </Card>
  );
}
