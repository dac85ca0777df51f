"use client";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { createTrackableAction, updateTrackableAction } from "@/lib/trackables/actions";
import { Alert, Button, Field, fieldName, inputClass, withoutError } from "@/components/ui";

export const TYPE_SUGGESTIONS = ["device", "vehicle", "person", "asset"] as const;

type Props =
  | { mode: "create"; trackable?: undefined; size?: "sm" | "md" }
  | { mode: "edit"; trackable: { id: string; name: string; type: string }; size?: "sm" | "md" };

/** Create or edit a trackable (name and type) in a native <dialog>; errors appear next to their fields. */
export function TrackableFormDialog({ mode, trackable, size = "md" }: Props) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const uid = useId();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (open) ref.current?.showModal();
    else ref.current?.close();
  }, [open]);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const name = String(data.get("name") ?? "");
    const type = String(data.get("type") ?? "");
    setPending(true);
    setErrors({});
    setFormError(null);
    try {
      const result =
        mode === "create" ? await createTrackableAction({ name, type }) : await updateTrackableAction({ id: trackable.id, name, type });
      if (!result.ok) {
        setErrors(result.fieldErrors);
        setFormError(Object.keys(result.fieldErrors).length > 0 ? null : result.error);
        return;
      }
      setOpen(false);
      if (mode === "create") router.push(`/trackables/${result.data.id}`);
      else router.refresh();
    } finally {
      setPending(false);
    }
  }

  const nameId = `${uid}-name`;
  const typeId = `${uid}-type`;
  const title = mode === "create" ? "New trackable" : `Edit “${trackable.name}”`;
  return (
    <>
      <Button variant={mode === "create" ? "primary" : "secondary"} size={size} onClick={() => setOpen(true)}>
        {mode === "create" ? "New trackable" : "Edit"}
      </Button>
      <dialog
        ref={ref}
        onClose={() => setOpen(false)}
        aria-labelledby={`${uid}-title`}
        className="m-auto w-full max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        {open ? (
          <form onSubmit={onSubmit} onChange={(e) => setErrors((prev) => withoutError(prev, fieldName(e)))} noValidate className="space-y-4 p-6">
            <div>
              <h2 id={`${uid}-title`} className="text-base font-semibold text-slate-900">
                {title}
              </h2>
              <p className="mt-1 text-sm text-slate-600">
                {mode === "create"
                  ? "A trackable is anything that reports positions: a phone, a van, a parcel."
                  : "Devices keep posting to the same id; only the label changes."}
              </p>
            </div>
            {formError ? <Alert>{formError}</Alert> : null}
            <Field id={nameId} label="Name" hint="1–100 characters, e.g. “Van 12”." error={errors.name}>
              <input
                id={nameId}
                name="name"
                defaultValue={trackable?.name ?? ""}
                maxLength={100}
                required
                autoFocus
                autoComplete="off"
                className={inputClass}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? `${nameId}-error` : `${nameId}-hint`}
              />
            </Field>
            <Field id={typeId} label="Type" hint="Pick one or write your own (1–40 characters)." error={errors.type}>
              <input
                id={typeId}
                name="type"
                list={`${uid}-types`}
                defaultValue={trackable?.type ?? "device"}
                maxLength={40}
                required
                autoComplete="off"
                className={inputClass}
                aria-invalid={errors.type ? true : undefined}
                aria-describedby={errors.type ? `${typeId}-error` : `${typeId}-hint`}
              />
              <datalist id={`${uid}-types`}>
                {TYPE_SUGGESTIONS.map((t) => (
                  <option key={t} value={t} />
                ))}
              </datalist>
            </Field>
            <div className="flex justify-end gap-2 pt-2">
              <Button variant="secondary" onClick={() => setOpen(false)} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Saving…" : mode === "create" ? "Create trackable" : "Save changes"}
              </Button>
            </div>
          </form>
        ) : null}
      </dialog>
    </>
  );
}
