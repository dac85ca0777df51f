"use client";
// The geofence form's fields, in the order they are read: the name, the shape (drawn or typed), the noise settings,
// the trackables it applies to, and how its events are sent.
import type { RefObject } from "react";
import { Field, inputClass } from "@/components/ui";
import type { Geofence } from "@/lib/geofences/schemas";
import type { TrackableSummary } from "@/lib/trackables/summaries";
import { AssignedTrackables } from "./assigned-trackables";
import type { useFieldErrors } from "./field-errors";
import type { FormState } from "./geofence-form";
import { NoiseSettings } from "./noise-settings";
import { NotificationSettings } from "./notification-settings";
import { ShapeFields } from "./shape-fields";

export function GeofenceFields({
  form,
  saved,
  trackables,
  enterprise,
  nameRef,
  drawing,
  hasDraft,
  update,
  errors: { err, aria, polygonErrors },
  onToggleDrawing,
  onPickShape,
  onTyped,
}: {
  form: FormState;
  /** The saved geofence being edited; null while creating one. */
  saved: Geofence | null;
  trackables: TrackableSummary[];
  enterprise: boolean;
  nameRef: RefObject<HTMLInputElement | null>;
  drawing: boolean;
  hasDraft: boolean;
  update: (patch: Partial<FormState>) => void;
  errors: Pick<ReturnType<typeof useFieldErrors>, "err" | "aria" | "polygonErrors">;
  onToggleDrawing: () => void;
  onPickShape: (shape: "circle" | "polygon") => void;
  /** A centre or radius was typed: the map follows it. */
  onTyped: () => void;
}) {
  return (
    <>
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

      <ShapeFields
        form={form}
        drawing={drawing}
        hasDraft={hasDraft}
        onToggleDrawing={onToggleDrawing}
        onPickShape={onPickShape}
        update={update}
        onTyped={onTyped}
        err={err}
        aria={aria}
        polygonErrors={polygonErrors}
      />

      <NoiseSettings key={saved?.id ?? "new"} form={form} update={update} err={err} aria={aria} />

      <AssignedTrackables
        trackables={trackables}
        all={form.allTrackables}
        ids={form.trackableIds}
        error={err("trackableIds")}
        onChange={(allTrackables, trackableIds) => update({ allTrackables, trackableIds })}
      />

      <NotificationSettings enterprise={enterprise} form={form} secretSet={saved?.webhookSecretSet ?? false} update={update} err={err} aria={aria} />
    </>
  );
}
