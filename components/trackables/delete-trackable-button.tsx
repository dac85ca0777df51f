"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteTrackableAction } from "@/lib/trackables/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Deletes a trackable after a confirmation that says its history goes with it; `redirectTo` leaves a detail page. */
export function DeleteTrackableButton({ id, name, redirectTo, size = "sm" }: { id: string; name: string; redirectTo?: string; size?: "sm" | "md" }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ConfirmButton
        label="Delete"
        title={`Delete “${name}”?`}
        confirmLabel="Delete trackable"
        size={size}
        onConfirm={async () => {
          const result = await deleteTrackableAction({ id });
          if (!result.ok) {
            setError(result.error);
            return;
          }
          if (redirectTo) router.push(redirectTo);
          else router.refresh();
        }}
      >
        Its whole location history is deleted with it, and it is removed from every geofence. Devices posting to its id
        will get 404 from then on. This cannot be undone.
      </ConfirmButton>
      {error ? (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      ) : null}
    </>
  );
}
