"use client";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Alert, Button, Field, inputClass } from "@/components/ui";
import { createPrivacyZoneAction, updatePrivacyZoneAction } from "@/lib/privacy-zones/actions";

export interface ZoneFormValues {
  id?: string;
  name: string;
  latitude: number | "";
  longitude: number | "";
  radius: number | "";
  mode: "drop" | "blur";
  trackableIds: string[] | null;
}

const EMPTY: ZoneFormValues = { name: "", latitude: "", longitude: "", radius: 200, mode: "drop", trackableIds: null };

/** Create a privacy zone, or edit one (`zone`): name, centre, radius, mode and the trackables it applies to (none ticked: all). */
export function ZoneForm({ zone, trackables, onDone }: { zone?: ZoneFormValues; trackables: { id: string; name: string }[]; onDone?: () => void }) {
  const router = useRouter();
  const uid = useId();
  const start = zone ?? EMPTY;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const num = (k: string) => (String(data.get(k) ?? "").trim() === "" ? undefined : Number(data.get(k)));
    const picked = data.getAll("trackableIds").map(String);
    const input = {
      name: String(data.get("name") ?? ""),
      latitude: num("latitude"),
      longitude: num("longitude"),
      radius: num("radius"),
      mode: String(data.get("mode") ?? "drop"),
      trackableIds: picked.length > 0 ? picked : null,
    };
    setPending(true);
    setErrors({});
    setFormError(null);
    try {
      const result = start.id ? await updatePrivacyZoneAction({ id: start.id, ...input }) : await createPrivacyZoneAction(input);
      if (!result.ok) {
        setErrors(result.fieldErrors);
        setFormError(Object.keys(result.fieldErrors).length > 0 ? null : result.error);
        return;
      }
      if (!start.id) form.reset();
      onDone?.();
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  const id = (k: string) => `${uid}-${k}`;
  const described = (k: string) => (errors[k] ? { "aria-invalid": true, "aria-describedby": `${id(k)}-error` } : {});
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={start.id ? `Edit ${start.name}` : "New privacy zone"}>
      {formError ? <Alert>{formError}</Alert> : null}
      <Field id={id("name")} label="Name" error={errors.name}>
        <input id={id("name")} name="name" defaultValue={start.name} className={inputClass} {...described("name")} />
      </Field>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Field id={id("latitude")} label="Latitude" error={errors.latitude}>
          <input id={id("latitude")} name="latitude" inputMode="decimal" defaultValue={start.latitude} className={inputClass} {...described("latitude")} />
        </Field>
        <Field id={id("longitude")} label="Longitude" error={errors.longitude}>
          <input id={id("longitude")} name="longitude" inputMode="decimal" defaultValue={start.longitude} className={inputClass} {...described("longitude")} />
        </Field>
        <Field id={id("radius")} label="Radius (m)" hint="At least 50 m" error={errors.radius}>
          <input id={id("radius")} name="radius" inputMode="numeric" defaultValue={start.radius} className={inputClass} {...described("radius")} />
        </Field>
      </div>
      <Field id={id("mode")} label="Mode" hint="Drop: not stored. Blur: stored at the centre, accuracy = radius." error={errors.mode}>
        <select id={id("mode")} name="mode" defaultValue={start.mode} className={inputClass}>
          <option value="drop">Drop</option>
          <option value="blur">Blur</option>
        </select>
      </Field>
      {trackables.length > 0 ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Trackables (none ticked: all)</legend>
          <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
            {trackables.map((t) => (
              <label key={t.id} className="flex items-center gap-2 text-sm text-slate-700">
                <input type="checkbox" name="trackableIds" value={t.id} defaultChecked={start.trackableIds?.includes(t.id) ?? false} />
                {t.name}
              </label>
            ))}
          </div>
          {errors.trackableIds ? (
            <p role="alert" className="mt-1 text-xs text-red-600">
              {errors.trackableIds}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <Button type="submit" disabled={pending}>
        {start.id ? "Save zone" : "Add zone"}
      </Button>
    </form>
  );
}
