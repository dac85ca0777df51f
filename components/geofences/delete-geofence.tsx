"use client";
// Deleting a geofence, and what it sets off: every trackable inside leaves it with a geofence.exit event (reason
// geofence_deleted), recorded and delivered like any exit (lib/geofences/synthetic.ts).
import { ConfirmButton } from "@/components/ui/confirm-button";

/** What the confirmation says, from how many trackables are inside now and whether the geofence has a webhook. */
export function deleteConsequences(inside: number, webhook: boolean): string {
  const to = webhook ? "this geofence's webhook and to the endpoints subscribed to geofence.exit" : "the endpoints subscribed to geofence.exit";
  const who =
    inside === 0
      ? "No trackable is inside it now; any that is inside when it is deleted"
      : inside === 1
        ? "The 1 trackable inside it now"
        : `Each of the ${inside} trackables inside it now`;
  return `The geofence and its assignments are removed. ${who} gets a geofence.exit event with reason geofence_deleted, recorded and sent to ${to}. Its delivery history is kept.`;
}

export function DeleteGeofence({ name, inside, webhook, onConfirm }: { name: string; inside: number; webhook: boolean; onConfirm: () => Promise<void> }) {
  return (
    <ConfirmButton label="Delete" title={`Delete “${name}”?`} confirmLabel="Delete geofence" size="md" onConfirm={onConfirm}>
      <span data-testid="delete-geofence-consequences">{deleteConsequences(inside, webhook)}</span>
    </ConfirmButton>
  );
}
