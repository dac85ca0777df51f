"use client";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Alert, Button, inputClass } from "@/components/ui";
import { createWorkspaceAction, switchWorkspaceAction } from "@/lib/teams/actions";

/**
 * The workspaces the user belongs to (when more than one), the current one chosen; picking another shows it (a cookie
 * the server checks against the memberships on every request). "New workspace" creates one the user owns.
 */
export function WorkspaceSwitcher({ current, workspaces }: { current: string; workspaces: { id: string; name: string; role: string }[] }) {
  const router = useRouter();
  const selectId = useId();
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function go(result: { ok: true } | { ok: false; error: string; fieldErrors: Record<string, string> }) {
    if (!result.ok) return setError(result.fieldErrors.name ?? result.error);
    setError(null);
    setCreating(false);
    router.push("/trackables");
    router.refresh();
  }

  return (
    <div className="mt-2 space-y-2">
      {workspaces.length > 1 ? (
        <>
          <label htmlFor={selectId} className="block text-xs font-medium text-slate-600">
            Switch workspace
          </label>
          <select
            id={selectId}
            data-testid="workspace-switcher"
            className={`${inputClass} py-1.5`}
            value={current}
            disabled={pending}
            onChange={async (e) => {
              setPending(true);
              try {
                await go(await switchWorkspaceAction({ accountId: e.target.value }));
              } finally {
                setPending(false);
              }
            }}
          >
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} ({w.role})
              </option>
            ))}
          </select>
        </>
      ) : null}
      {creating ? (
        <form
          className="flex gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            const name = String(new FormData(e.currentTarget).get("name") ?? "");
            setPending(true);
            try {
              await go(await createWorkspaceAction({ name }));
            } finally {
              setPending(false);
            }
          }}
        >
          <label htmlFor={`${selectId}-new`} className="sr-only">
            Name of the new workspace
          </label>
          <input id={`${selectId}-new`} name="name" maxLength={100} required placeholder="Workspace name" className={`${inputClass} py-1.5`} />
          <Button type="submit" size="sm" disabled={pending}>
            Create
          </Button>
        </form>
      ) : (
        <Button variant="ghost" size="sm" onClick={() => setCreating(true)}>
          + New workspace
        </Button>
      )}
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
