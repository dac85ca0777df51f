"use client";
import { useEffect, useState } from "react";
import { Field, cx, inputClass } from "@/components/ui";
import type { Aria, FormState } from "./geofence-form";
import { NumberField } from "./number-field";

/** The GPS-noise settings and the labels, each with what it does in plain words. */
export function NoiseSettings({
  form,
  update,
  err,
  aria,
}: {
  form: FormState;
  update: (patch: Partial<FormState>) => void;
  err: (k: string) => string | null;
  aria: Aria;
}) {
  const number = (id: string, key: "exitBuffer" | "debounceSeconds" | "dwellSeconds" | "maxAccuracy", label: string, hint: string, opts: { max: number; placeholder?: string }) => (
    <NumberField
      id={id}
      label={label}
      hint={hint}
      error={err(key)}
      value={form[key]}
      onChange={(value) => update({ [key]: value })}
      min={0}
      max={opts.max}
      step={1}
      placeholder={opts.placeholder}
      aria={aria(id, key, true)}
    />
  );
  const settings = [
    Number(form.exitBuffer) > 0 ? `exit buffer ${form.exitBuffer} m` : null,
    Number(form.debounceSeconds) > 0 ? `debounce ${form.debounceSeconds} s` : null,
    Number(form.dwellSeconds) > 0 ? `dwell after ${form.dwellSeconds} s` : null,
    form.maxAccuracy.trim() !== "" ? `accuracy ≤ ${form.maxAccuracy} m` : null,
    form.tag.trim() !== "" ? `tag ${form.tag.trim()}` : null,
  ].filter((x) => x !== null);
  const invalid = ["exitBuffer", "debounceSeconds", "dwellSeconds", "maxAccuracy", "tag", "externalId", "metadata"].some((k) => err(k) !== null);
  const [open, setOpen] = useState(settings.length > 0 || form.externalId !== "" || form.metadata !== "");
  useEffect(() => {
    if (invalid) setOpen(true);
  }, [invalid]);
  return (
    // Collapsed while everything is at its default, so the form stays short; open when a value is set or wrong.
    <details className="group rounded-md border border-slate-200" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer list-none px-3 py-2 text-sm font-medium text-slate-800 marker:hidden">
        <span className="mr-1 inline-block transition-transform group-open:rotate-90" aria-hidden>
          ▸
        </span>
        GPS noise, dwell and labels
        <span className="block pl-4 text-xs font-normal text-slate-500" data-testid="noise-summary">
          {settings.length > 0 ? settings.join(" · ") : "Defaults: every crossing counts at once, no dwell events."}
        </span>
      </summary>
      <div className="space-y-5 border-t border-slate-100 px-3 pt-3 pb-4">
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">GPS noise</legend>
          <p className="text-xs text-slate-500">Positions jitter by metres. These settings stop a trackable near the edge from flapping in and out.</p>
          {number("gf-exit-buffer", "exitBuffer", "Exit buffer (metres)", "Once inside, a trackable only leaves when it is more than this far outside the edge. Entering is unchanged. 0 to 10,000; 0 = off.", { max: 10_000 })}
          {number("gf-debounce", "debounceSeconds", "Debounce (seconds)", "A crossing counts only once the trackable has stayed on the new side this long; a shorter excursion is ignored. The event keeps the time of the first point on the new side. 0 to 86,400; 0 = off.", { max: 86_400 })}
          {number("gf-dwell", "dwellSeconds", "Dwell after (seconds)", "Records geofence.dwell once per visit when a trackable has been inside this long. 0 to 604,800 (7 days); 0 = off.", { max: 604_800 })}
          {number("gf-max-accuracy", "maxAccuracy", "Maximum accuracy (metres)", "Points less accurate than this (a larger accuracy radius) are stored but neither enter nor leave this geofence. Empty = no limit; up to 100,000.", { max: 100_000, placeholder: "No limit" })}
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">Labels</legend>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
            <Field id="gf-tag" label="Tag" hint="Groups geofences, e.g. depots (GET /geofences?tag=). Up to 64 characters; optional." error={err("tag")}>
              <input id="gf-tag" className={inputClass} value={form.tag} maxLength={64} onChange={(e) => update({ tag: e.target.value })} {...aria("gf-tag", "tag", true)} />
            </Field>
            <Field id="gf-external-id" label="External ID" hint="Your own identifier, unique in this workspace. Up to 128 characters; optional." error={err("externalId")}>
              <input
                id="gf-external-id"
                className={cx(inputClass, "font-mono")}
                value={form.externalId}
                maxLength={128}
                onChange={(e) => update({ externalId: e.target.value })}
                {...aria("gf-external-id", "externalId", true)}
              />
            </Field>
          </div>
          <Field id="gf-metadata" label="Metadata (JSON)" hint='A JSON object you control, up to 4 KiB, e.g. {"region": "north"}. Empty = none.' error={err("metadata")}>
            <textarea
              id="gf-metadata"
              rows={3}
              spellCheck={false}
              className={cx(inputClass, "font-mono text-xs")}
              value={form.metadata}
              onChange={(e) => update({ metadata: e.target.value })}
              {...aria("gf-metadata", "metadata", true)}
            />
          </Field>
        </fieldset>
      </div>
    </details>
  );
}
