"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { renameWorkspaceAction } from "@/lib/accounts/actions";
import { Alert, Button, Field, inputClass } from "@/components/ui";

export function WorkspaceNameForm({ name }: { name: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget).get("name") ?? "");
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      const result = await renameWorkspaceAction({ name: value });
      if (!result.ok) {
        setError(result.fieldErrors.name ?? result.error);
        return;
      }
      setSaved(true);
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} onChange={() => setError(null)} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="sm:w-96">
        <Field id="workspace-name" label="Workspace name" hint="Shown in the sidebar to everyone in this workspace." error={error}>
          <input
            id="workspace-name"
            name="name"
            defaultValue={name}
            maxLength={100}
            required
            autoComplete="organization"
            className={inputClass}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "workspace-name-error" : "workspace-name-hint"}
            onChange={() => setSaved(false)}
          />
        </Field>
      </div>
      <Button type="submit" disabled={pending} className="sm:mt-6">
        {pending ? "Saving…" : "Save"}
      </Button>
      {saved ? (
        <div className="sm:mt-6">
          <Alert tone="success">Saved.</Alert>
        </div>
      ) : null}
    </form>
  );
}
