"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui";
import { setTrackingAction } from "@/lib/trackables/actions";

/** Pauses or resumes a trackable's tracking: while paused, posts (API and devices) are acknowledged and discarded. */
export function TrackingToggle({ id, tracking }: { id: string; tracking: "active" | "paused" }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const paused = tracking === "paused";
  return (
    <>
      <Button
        variant="secondary"
        size="md"
        aria-pressed={paused}
        disabled={busy}
        data-testid="tracking-toggle"
        onClick={async () => {
          setBusy(true);
          const result = await setTrackingAction({ id, tracking: paused ? "active" : "paused" });
          setBusy(false);
          if (!result.ok) setError(result.error);
          else router.refresh();
        }}
      >
        {paused ? "Resume tracking" : "Pause tracking"}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      ) : null}
    </>
  );
}
