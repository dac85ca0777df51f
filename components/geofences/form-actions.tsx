"use client";
// The geofence form's last row: save (or create), delete a saved geofence, and whether there are unsaved changes.
import { Button } from "@/components/ui";
import type { Geofence } from "@/lib/geofences/schemas";
import { DeleteGeofence } from "./delete-geofence";

export function FormActions({
  saved,
  inside,
  enterprise,
  pending,
  drawing,
  dirty,
  onDelete,
}: {
  /** The saved geofence being edited; null while creating one. */
  saved: Geofence | null;
  /** How many trackables are inside it now (from the live list). */
  inside: number;
  enterprise: boolean;
  pending: boolean;
  drawing: boolean;
  dirty: boolean;
  onDelete: () => Promise<void>;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
      <Button type="submit" disabled={pending || drawing}>
        {pending ? "Saving…" : saved ? "Save changes" : "Create geofence"}
      </Button>
      {saved ? <DeleteGeofence name={saved.name} inside={inside} webhook={enterprise && saved.notificationType === "webhook"} onConfirm={onDelete} /> : null}
      {dirty && saved ? <span className="text-xs text-amber-700">Unsaved changes</span> : null}
    </div>
  );
}
