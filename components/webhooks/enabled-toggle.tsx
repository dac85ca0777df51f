"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { updateWebhookAction } from "@/lib/webhooks/actions";
import { cx } from "@/components/ui";

/** An on/off switch for an endpoint (a real checkbox with role="switch": Space toggles it). */
export function EnabledToggle({ id, enabled, label }: { id: string; enabled: boolean; label: string }) {
  const router = useRouter();
  const [on, setOn] = useState(enabled);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle(next: boolean) {
    setOn(next);
    setPending(true);
    setError(null);
    try {
      const result = await updateWebhookAction(id, { enabled: next });
      if (!result.ok) {
        setOn(!next);
        setError(result.error);
        return;
      }
      router.refresh();
    } finally {
      setPending(false);
    }
  }
  return (
    <span className="inline-flex items-center gap-2">
      <label className="relative inline-flex cursor-pointer items-center">
        <input
          type="checkbox"
          role="switch"
          className="peer sr-only"
          checked={on}
          disabled={pending}
          aria-label={label}
          onChange={(e) => toggle(e.target.checked)}
        />
        <span
          aria-hidden
          className={cx(
            "h-5 w-9 rounded-full bg-slate-300 transition peer-checked:bg-indigo-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600",
            "after:absolute after:top-0.5 after:left-0.5 after:h-4 after:w-4 after:rounded-full after:bg-white after:shadow after:transition peer-checked:after:translate-x-4",
          )}
        />
      </label>
      <span className="text-xs text-slate-600">{on ? "Enabled" : "Disabled"}</span>
      {error ? (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      ) : null}
    </span>
  );
}
