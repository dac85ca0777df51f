"use client";
// Create or edit an account webhook endpoint: URL, note, event kinds, enabled, and a write-only signing secret.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createWebhookAction, deleteWebhookAction, updateWebhookAction } from "@/lib/webhooks/actions";
import { Alert, Button, Card, Field, cx, inputClass, withoutError } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { Webhook } from "@/lib/webhooks/schemas";
import { EVENT_KINDS } from "./events";
import { SecretControl, type SecretChange } from "./secret-control";

export function WebhookForm({ webhook }: { webhook: Webhook | null }) {
  const router = useRouter();
  const [url, setUrl] = useState(webhook?.url ?? "");
  const [description, setDescription] = useState(webhook?.description ?? "");
  const [events, setEvents] = useState<string[]>(webhook?.events ?? ["geofence.entry", "geofence.exit"]);
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [secret, setSecret] = useState<SecretChange>({ mode: "keep" });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (secret.mode === "replace" && secret.value === "") {
      setFieldErrors({ secret: "Enter the new secret, or cancel." });
      setFormError("Check the highlighted fields.");
      return;
    }
    const body: Record<string, unknown> = {
      url: url.trim(),
      description,
      events,
      enabled,
      ...(secret.mode === "replace" ? { secret: secret.value } : {}),
      ...(secret.mode === "remove" && webhook ? { secret: null } : {}),
    };
    setPending(true);
    setNotice(null);
    try {
      const result = webhook ? await updateWebhookAction(webhook.id, body) : await createWebhookAction(body);
      if (!result.ok) {
        setFieldErrors(Object.fromEntries(Object.entries(result.fieldErrors).map(([k, v]) => [k.replace(/\[\d+\]$/, ""), v])));
        setFormError(result.error);
        return;
      }
      setFieldErrors({});
      setFormError(null);
      if (!webhook) {
        router.push(`/webhooks/${result.data.id}?created=1`);
        return;
      }
      setSecret({ mode: "keep" });
      setNotice("Changes saved.");
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  const err = (k: string) => fieldErrors[k] ?? null;
  // An edited field loses its error at once; the next submit checks it again.
  const clear = (k: string) => setFieldErrors((prev) => withoutError(prev, k));
  return (
    <Card className="max-w-2xl p-5 sm:p-6">
      <form onSubmit={submit} noValidate className="space-y-5" aria-label={webhook ? "Edit endpoint" : "New endpoint"}>
        {formError ? <Alert>{formError}</Alert> : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        <Field id="wh-url" label="Endpoint URL" hint="A public https URL that answers 2xx." error={err("url")}>
          <input
            id="wh-url"
            type="url"
            className={cx(inputClass, "font-mono")}
            placeholder="https://example.com/webhooks/fenceline"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              clear("url");
            }}
            aria-invalid={err("url") ? true : undefined}
            aria-describedby={err("url") ? "wh-url-error" : "wh-url-hint"}
          />
        </Field>
        <Field id="wh-description" label="Description" hint="Optional: what receives it." error={err("description")}>
          <input
            id="wh-description"
            className={inputClass}
            maxLength={500}
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              clear("description");
            }}
            aria-invalid={err("description") ? true : undefined}
          />
        </Field>
        <fieldset aria-describedby={err("events") ? "wh-events-error" : undefined}>
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {EVENT_KINDS.map((k) => (
              <label key={k.value} className="flex items-start gap-2 rounded-md p-2 ring-1 ring-slate-200 has-[:checked]:bg-indigo-50/50 has-[:checked]:ring-indigo-300">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 accent-indigo-600"
                  checked={events.includes(k.value)}
                  onChange={(e) => {
                    setEvents((ev) => (e.target.checked ? [...ev, k.value] : ev.filter((x) => x !== k.value)));
                    clear("events");
                  }}
                />
                <span>
                  <span className="block font-mono text-xs font-medium text-slate-900">{k.value}</span>
                  <span className="block text-xs text-slate-500">{k.description}</span>
                </span>
              </label>
            ))}
          </div>
          {err("events") ? (
            <p id="wh-events-error" role="alert" className="mt-1 text-xs text-red-600">
              {err("events")}
            </p>
          ) : null}
        </fieldset>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" className="h-4 w-4 accent-indigo-600" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled (disabled endpoints receive nothing)
        </label>
        <SecretControl id="wh-secret" isSet={webhook?.secretSet ?? false} change={secret} error={err("secret")}
          onChange={(change) => {
            setSecret(change);
            clear("secret");
          }}
        />
        <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : webhook ? "Save changes" : "Create endpoint"}
          </Button>
          {webhook ? (
            <ConfirmButton
              label="Delete"
              size="md"
              title="Delete this endpoint?"
              confirmLabel="Delete endpoint"
              onConfirm={async () => {
                const result = await deleteWebhookAction(webhook.id);
                if (!result.ok) {
                  setFormError(result.error);
                  return;
                }
                router.push("/webhooks");
              }}
            >
              Nothing more is sent to <span className="font-mono break-all">{webhook.url}</span>. Deliveries already made stay in the
              history; retries already scheduled still finish.
            </ConfirmButton>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
