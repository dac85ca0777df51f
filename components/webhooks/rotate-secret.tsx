"use client";
// Rotation of a signing secret, an account endpoint's or a geofence's webhook: how long the current secret keeps
// signing beside the new one, and the new secret, shown once.
import { useState } from "react";
import { Alert, Button, Card, Time, cx, inputClass } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import type { ActionResult } from "@/lib/dashboard/action";

const OVERLAPS = [
  { seconds: 0, label: "Stop the current secret now" },
  { seconds: 3600, label: "Keep it for 1 hour" },
  { seconds: 86_400, label: "Keep it for 24 hours" },
  { seconds: 604_800, label: "Keep it for 7 days" },
] as const;

/** Rotation of a signing secret (an endpoint's or a geofence's webhook): the new secret is shown once. */
export function RotateSecret({
  idPrefix,
  hasSecret,
  rotate,
}: {
  idPrefix: string;
  hasSecret: boolean;
  rotate: (input: { expireCurrentIn: number }) => Promise<ActionResult<{ secret: string; previousSecretExpiresAt: string | null }>>;
}) {
  const [overlap, setOverlap] = useState<number>(86_400);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | null } | null>(null);
  async function run() {
    setPending(true);
    setError(null);
    try {
      const r = await rotate({ expireCurrentIn: overlap });
      if (r.ok) setRotated(r.data);
      else setError(r.error);
    } finally {
      setPending(false);
    }
  }
  return (
    <Card className="space-y-3 p-5" aria-labelledby={`${idPrefix}-rotate-title`}>
      <h2 id={`${idPrefix}-rotate-title`} className="text-sm font-semibold text-slate-900">
        Rotate the signing secret
      </h2>
      <p className="text-xs text-slate-500">
        Generates a new <code>whsec_</code> secret that signs from now on. {hasSecret ? "The current one can keep signing beside it for a while, so your receiver can switch without missing a delivery." : ""}
      </p>
      {rotated ? (
        <div className="space-y-2" data-testid="rotated-secret">
          <Alert tone="success">New secret created. Copy it now: it is not shown again.</Alert>
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-900" data-testid="new-secret">
              {rotated.secret}
            </code>
            <CopyButton value={rotated.secret} label="Copy new secret" />
          </div>
          <p className="text-xs text-slate-600" data-testid="previous-expiry">
            {rotated.previousSecretExpiresAt ? (
              <>
                The previous secret stops working at <Time value={rotated.previousSecretExpiresAt} />.
              </>
            ) : hasSecret ? (
              "The previous secret stopped working now."
            ) : (
              "Deliveries are signed from now on."
            )}
          </p>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {hasSecret ? (
            <>
              <label htmlFor={`${idPrefix}-rotate-overlap`} className="sr-only">
                How long the current secret keeps working
              </label>
              <select id={`${idPrefix}-rotate-overlap`} className={cx(inputClass, "max-w-64")} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
                {OVERLAPS.map((o) => (
                  <option key={o.seconds} value={o.seconds}>
                    {o.label}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <Button variant="secondary" onClick={run} disabled={pending}>
            {pending ? "Rotating…" : "Rotate secret"}
          </Button>
        </div>
      )}
      {error ? <Alert>{error}</Alert> : null}
    </Card>
  );
}
