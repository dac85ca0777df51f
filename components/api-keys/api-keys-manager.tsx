"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/api-keys/actions";
import { Badge, Button, Card, EmptyState, Field, Time, inputClass, ScrollTable } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { ScopePicker } from "./scope-picker";

export interface ApiKeyItem {
  id: string;
  name: string;
  start: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function ApiKeysManager({ keys }: { keys: ApiKeyItem[] }) {
  const router = useRouter();
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [scopesError, setScopesError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const name = String(data.get("name") ?? "");
    const scopes = data.getAll("scopes").map(String);
    setPending(true);
    setNameError(null);
    setScopesError(null);
    try {
      const result = await createApiKeyAction({ name, scopes });
      if (!result.ok) {
        setNameError(result.fieldErrors.name ?? null);
        setScopesError(result.fieldErrors.scopes ?? null);
        return;
      }
      setCreated({ key: result.key, name: name.trim() });
      form.reset();
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  const active = keys.filter((k) => !k.revokedAt);
  const revoked = keys.filter((k) => k.revokedAt);
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="text-base font-semibold text-slate-900">Create a key</h2>
        <form onSubmit={onCreate} onChange={() => { setNameError(null); setScopesError(null); }} className="mt-3" noValidate>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="sm:w-80">
            <Field id="key-name" label="Name" hint="What uses it, e.g. “backend” or “fleet gateway”." error={nameError}>
              <input
                id="key-name"
                name="name"
                maxLength={100}
                className={inputClass}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? "key-name-error" : "key-name-hint"}
              />
            </Field>
          </div>
          <Button type="submit" disabled={pending} className="sm:mt-6">
            {pending ? "Creating…" : "Create key"}
          </Button>
          </div>
          <ScopePicker error={scopesError} />
        </form>
        {created ? (
          <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="new-key-panel">
            <p className="text-sm font-semibold text-amber-900">Copy your new key “{created.name}” now</p>
            <p className="mt-1 text-sm text-amber-800">You won’t see it again: only a hash of it is stored.</p>
            <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
              <label htmlFor="new-api-key" className="sr-only">
                New API key
              </label>
              <input
                id="new-api-key"
                data-testid="new-api-key"
                readOnly
                value={created.key}
                onFocus={(e) => e.currentTarget.select()}
                className={`${inputClass} font-mono`}
              />
              <CopyButton value={created.key} size="md" />
              <Button variant="ghost" onClick={() => setCreated(null)}>
                Done
              </Button>
            </div>
          </div>
        ) : null}
      </Card>

      {active.length === 0 && revoked.length === 0 ? (
        <EmptyState title="No API keys yet">Create a key above to start calling the API.</EmptyState>
      ) : (
        <Card className="overflow-hidden">
          <ScrollTable label="API keys">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">Name</th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">Key</th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">Scopes</th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">Created</th>
                <th scope="col" className="px-4 py-3">Last used</th>
                <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {[...active, ...revoked].map((k) => (
                <tr key={k.id} data-testid="api-key-row" className={k.revokedAt ? "text-slate-500" : undefined}>
                  <td className="px-4 py-3 font-medium text-slate-900">
                    {k.name}
                    <span className="block font-mono text-xs font-normal text-slate-500 sm:hidden">{k.start}…</span>
                  </td>
                  <td className="hidden px-4 py-3 font-mono text-xs sm:table-cell">{k.start}…</td>
                  <td className="hidden px-4 py-3 text-xs sm:table-cell" data-testid="api-key-scopes">
                    {k.scopes.includes("*") ? "All" : k.scopes.join(", ")}
                  </td>
                  <td className="hidden px-4 py-3 sm:table-cell"><Time value={k.createdAt} /></td>
                  <td className="px-4 py-3"><Time value={k.lastUsedAt} fallback="Never" /></td>
                  <td className="px-4 py-3 text-right">
                    {k.revokedAt ? (
                      <Badge color="red">Revoked</Badge>
                    ) : (
                      <ConfirmButton
                        label="Revoke"
                        title={`Revoke “${k.name}”?`}
                        confirmLabel="Revoke key"
                        onConfirm={async () => {
                          await revokeApiKeyAction({ id: k.id });
                          router.refresh();
                        }}
                      >
                        Requests with this key will be refused with 401 from now on. This cannot be undone.
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
        </Card>
      )}
    </div>
  );
}
