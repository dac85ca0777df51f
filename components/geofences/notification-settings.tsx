"use client";
// The form's notifications: none, or the geofence's own webhook (Enterprise) with its URL and write-only secret.
import { Alert, Field, cx, inputClass } from "@/components/ui";
import { SecretControl } from "@/components/webhooks/secret-control";
import type { Aria, FormState } from "./geofence-form";

// Every event of this geofence goes to its webhook (lib/webhooks/fan-out.ts): dwells too, once dwell is set.
export const WEBHOOK_HINT =
  "Receives this geofence's geofence.entry, geofence.exit and geofence.dwell events (dwell once “Dwell after” is set) as signed JSON POSTs.";

export function NotificationSettings({
  enterprise,
  form,
  secretSet,
  update,
  err,
  aria,
}: {
  enterprise: boolean;
  form: FormState;
  secretSet: boolean;
  update: (patch: Partial<FormState>) => void;
  err: (k: string) => string | null;
  aria: Aria;
}) {
  return (
    <fieldset className="space-y-3" disabled={!enterprise}>
      <legend className="text-sm font-medium text-slate-800">Notifications</legend>
      {!enterprise ? (
        <Alert tone="info">
          Webhooks need the Enterprise plan. Your geofences keep working on the free plan; on Enterprise, every
          entry, exit and dwell is also sent to your endpoint as a signed webhook.
        </Alert>
      ) : null}
      <div className="flex gap-4" role="radiogroup" aria-label="Notification type">
        {(["none", "webhook"] as const).map((t) => (
          <label key={t} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name="gf-notification"
              value={t}
              checked={form.notificationType === t}
              onChange={() => update({ notificationType: t })}
              className="h-4 w-4 accent-indigo-600"
            />
            {t === "none" ? "None" : "Webhook"}
          </label>
        ))}
      </div>
      {err("notificationType") ? <p className="text-xs text-red-600">{err("notificationType")}</p> : null}
      {form.notificationType === "webhook" || form.webhookUrl !== "" ? (
        <>
          <Field
            id="gf-url"
            label="Webhook URL"
            hint={WEBHOOK_HINT}
            error={err("webhookUrl")}
          >
            <input
              id="gf-url"
              type="url"
              className={cx(inputClass, "font-mono")}
              placeholder="https://example.com/webhooks/fenceline"
              value={form.webhookUrl}
              onChange={(e) => update({ webhookUrl: e.target.value })}
              {...aria("gf-url", "webhookUrl", true)}
            />
          </Field>
          <SecretControl
            id="gf-secret"
            isSet={secretSet}
            change={form.secret}
            error={err("webhookSecret")}
            onChange={(secret) => update({ secret })}
          />
        </>
      ) : null}
    </fieldset>
  );
}
