"use client";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { deleteWorkspaceAction } from "@/lib/accounts/actions";
import { Button, Field, inputClass } from "@/components/ui";

/** The danger zone: the workspace's name typed exactly enables the button; once deleted, the session is signed out. */
export function DeleteWorkspaceForm({ name }: { name: string }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const matches = typed.trim() === name.trim();

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!matches) return;
    setPending(true);
    setError(null);
    const result = await deleteWorkspaceAction({ name: typed.trim() });
    if (!result.ok) {
      setError(result.fieldErrors.name ?? result.error);
      setPending(false);
      return;
    }
    await signOut({ callbackUrl: "/sign-in" });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="sm:w-96">
        <Field id="delete-workspace-name" label={`Type ${name} to confirm`} error={error}>
          <input
            id="delete-workspace-name"
            name="name"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setError(null);
            }}
            autoComplete="off"
            spellCheck={false}
            className={inputClass}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "delete-workspace-name-error" : undefined}
          />
        </Field>
      </div>
      <Button type="submit" variant="danger" disabled={!matches || pending} className="sm:mt-6">
        {pending ? "Deleting…" : "Delete workspace"}
      </Button>
    </form>
  );
}
