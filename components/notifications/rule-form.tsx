"use client";
// Create or edit a notification rule: event types, trackables, geofences, channels, schedule, cooldown, template.
import { useState } from "react";
import { Alert, Button, Field, inputClass } from "@/components/ui";
import { createRuleAction, updateRuleAction } from "@/lib/notifications/actions";
import type { NotificationRule } from "@/lib/notifications/rule-schemas";
import { CheckGroup } from "./check-group";
import { ScheduleEditor } from "./schedule-editor";

export interface RuleOptions {
  eventTypes: Array<readonly [string, string]>;
  trackables: Array<readonly [string, string]>;
  geofences: Array<readonly [string, string]>;
  channels: Array<readonly [string, string]>;
}

export function RuleForm({ rule, options, onDone }: { rule: NotificationRule | null; options: RuleOptions; onDone: () => void }) {
  const [name, setName] = useState(rule?.name ?? "");
  const [eventTypes, setEventTypes] = useState<string[]>(rule?.eventTypes ?? ["geofence.entry"]);
  const [trackableIds, setTrackableIds] = useState<string[]>(rule?.trackableIds ?? []);
  const [geofenceIds, setGeofenceIds] = useState<string[]>(rule?.geofenceIds ?? []);
  const [channelIds, setChannelIds] = useState<string[]>(rule?.channelIds ?? options.channels.slice(0, 1).map(([id]) => id));
  const [schedule, setSchedule] = useState(rule?.schedule ?? null);
  const [cooldown, setCooldown] = useState(String(rule?.cooldownSeconds ?? 0));
  const [maxAge, setMaxAge] = useState(String(rule?.maxEventAgeSeconds ?? 900));
  const [title, setTitle] = useState(rule?.template?.title ?? "");
  const [body, setBody] = useState(rule?.template?.body ?? "");
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const id = rule ? `rule-${rule.id}` : "rule-new";

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const template = title || body ? { ...(title ? { title } : {}), ...(body ? { body } : {}) } : null;
    const input = {
      name,
      eventTypes,
      trackableIds: trackableIds.length ? trackableIds : null,
      geofenceIds: geofenceIds.length ? geofenceIds : null,
      channelIds,
      schedule,
      cooldownSeconds: Number(cooldown),
      maxEventAgeSeconds: Number(maxAge),
      template,
    };
    setPending(true);
    try {
      const result = rule ? await updateRuleAction(rule.id, input) : await createRuleAction(input);
      if (!result.ok) {
        setError(result.error);
        setErrors(Object.fromEntries(Object.entries(result.fieldErrors).map(([k, v]) => [k.replace(/\[\d+\]$/, ""), v])));
        return;
      }
      onDone();
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={rule ? `Edit rule ${rule.name}` : "New rule"}>
      {error ? <Alert>{error}</Alert> : null}
      <Field id={`${id}-name`} label="Name" error={errors.name}>
        <input id={`${id}-name`} className={inputClass} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </Field>
      <CheckGroup legend="Events" options={options.eventTypes} value={eventTypes} onChange={setEventTypes} error={errors.eventTypes} />
      <CheckGroup legend="Channels" options={options.channels} value={channelIds} onChange={setChannelIds} error={errors.channelIds} />
      {options.trackables.length ? (
        <CheckGroup legend="Trackables" hint="None ticked: every trackable." options={options.trackables} value={trackableIds} onChange={setTrackableIds} error={errors.trackableIds} />
      ) : null}
      {options.geofences.length ? (
        <CheckGroup legend="Geofences" hint="None ticked: any geofence. Ticked: only events of those geofences." options={options.geofences} value={geofenceIds} onChange={setGeofenceIds} error={errors.geofenceIds} />
      ) : null}
      <ScheduleEditor id={id} value={schedule} onChange={setSchedule} errors={errors} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-cooldown`} label="Cooldown (seconds)" hint="Quiet time per trackable and event type after a message." error={errors.cooldownSeconds}>
          <input id={`${id}-cooldown`} type="number" min={0} className={inputClass} value={cooldown} onChange={(e) => setCooldown(e.target.value)} />
        </Field>
        <Field id={`${id}-maxage`} label="Maximum event age (seconds)" hint="Older events (late uploads) are not sent." error={errors.maxEventAgeSeconds}>
          <input id={`${id}-maxage`} type="number" min={1} className={inputClass} value={maxAge} onChange={(e) => setMaxAge(e.target.value)} />
        </Field>
      </div>
      <Field id={`${id}-title`} label="Title template (optional)" hint="E.g. {{trackable.name}} at {{geofence.name}}. Empty: a plain sentence." error={errors["template.title"]}>
        <input id={`${id}-title`} className={inputClass} value={title} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field id={`${id}-body`} label="Body template (optional)" hint="Placeholders: {{time}}, {{location.latitude}}, {{location.longitude}}, {{link}}, {{event.type}}…" error={errors["template.body"]}>
        <textarea id={`${id}-body`} rows={2} className={inputClass} value={body} onChange={(e) => setBody(e.target.value)} />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {rule ? "Save rule" : "Add rule"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
