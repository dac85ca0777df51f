"use client";
// The geofence form's field errors: kept by the field paths the server (or the form's own checks) names, shown as
// sentences next to their fields, and dropped as soon as their field is changed (the server checks again on save).
import { useCallback, useState } from "react";
import { LABELS, type FormState } from "./geofence-form";
import { fieldSentence, polygonSentences } from "./geofence-messages";

/** The error paths a change of each form key answers, where they differ from the key itself. */
const FIELD_OF: Record<string, string[]> = {
  secret: ["webhookSecret"],
  allTrackables: ["trackableIds"],
  rings: ["geometry"],
  shape: ["geometry", "shape", "latitude", "longitude", "radius"],
};

export function useFieldErrors() {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  /** Drops the errors of these field paths (a path's own errors and those under it). */
  const clear = useCallback(
    (paths: readonly string[]) =>
      setFieldErrors((e) => {
        const stale = Object.keys(e).filter((k) => paths.some((f) => k === f || k.startsWith(`${f}.`) || k.startsWith(`${f}[`)));
        if (stale.length === 0) return e;
        const next = { ...e };
        for (const k of stale) delete next[k];
        return next;
      }),
    [],
  );
  /** Drops the errors of the fields a patch of the form changed. */
  const clearFor = (patch: Partial<FormState>) => clear(Object.keys(patch).flatMap((k) => FIELD_OF[k] ?? [k]));
  /** A field's error as a sentence, or null. */
  const err = (k: string) => (fieldErrors[k] ? fieldSentence(LABELS[k] ?? k, fieldErrors[k]) : null);
  /** The aria attributes of a field's input: invalid with its error, else described by its hint when it has one. */
  const aria = (id: string, k: string, hint = false) => ({
    "aria-invalid": err(k) ? true : undefined,
    "aria-describedby": err(k) ? `${id}-error` : hint ? `${id}-hint` : undefined,
  });
  return { setFieldErrors, clear, clearFor, err, aria, polygonErrors: polygonSentences(fieldErrors) };
}
