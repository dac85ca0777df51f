"use client";
// Create or edit a notification channel: its type (on creation), name and the type's config; secrets are write-only.
import { useState } from "react";
import { Alert, Button, Field, inputClass } from "@/components/ui";
import { createChannelAction, updateChannelAction } from "@/lib/notifications/actions";
import type { NotificationChannel } from "@/lib/notifications/schemas";
import { CHANNEL_FIELDS, configOf } from "./channel-fields";

export function ChannelForm({ channel, types, onDone }: { channel: NotificationChannel | null; types: string[]; onDone: () => void }) {
  const [type, setType] = useState(channel?.type ?? types[0] ?? "ntfy");
  const [name, setName] = useState(channel?.name ?? "");
  const [values, setValues] = useState<Record<string, string>>(() => {
    const c = (channel?.config ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : typeof v === "string" ? v : ""]));
  });
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const prefix = channel ? `ch-${channel.id}` : "ch-new";

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    try {
      const config = configOf(type, values);
      const result = channel ? await updateChannelAction(channel.id, { name, config }) : await createChannelAction({ name, type, config });
      if (!result.ok) {
        setError(result.error);
        setFieldErrors(result.fieldErrors);
        return;
      }
      onDone();
    } finally {
      setPending(false);
    }
  }

  const set = (key: string, value: string) => setValues((v) => ({ ...v, [key]: value }));
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={channel ? `Edit channel ${channel.name}` : "New channel"}>
      {error ? <Alert>{error}</Alert> : null}
      {channel ? null : (
        <Field id={`${prefix}-type`} label="Type">
          <select id={`${prefix}-type`} className={inputClass} value={type} onChange={(e) => setType(e.target.value)}>
            {types.map((t) => (
              <option key={t} value={t}>
                {CHANNEL_FIELDS[t]?.label ?? t}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field id={`${prefix}-name`} label="Name" error={fieldErrors.name}>
        <input id={`${prefix}-name`} className={inputClass} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </Field>
      {(CHANNEL_FIELDS[type]?.fields ?? []).map((f) => {
        const stored = channel ? (channel.config as Record<string, unknown>)[`${f.key}Set`] === true : false;
        const hint = f.secret && stored ? "Saved: leave empty to keep it" : f.hint;
        return (
          <Field key={f.key} id={`${prefix}-${f.key}`} label={f.optional ? `${f.label} (optional)` : f.label} hint={hint} error={fieldErrors[`config.${f.key}`]}>
            <input
              id={`${prefix}-${f.key}`}
              className={inputClass}
              type={f.secret ? "password" : "text"}
              autoComplete="off"
              value={values[f.key] ?? ""}
              onChange={(e) => set(f.key, e.target.value)}
            />
          </Field>
        );
      })}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {channel ? "Save channel" : "Add channel"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
