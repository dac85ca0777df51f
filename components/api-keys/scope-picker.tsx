"use client";
import { useState } from "react";
import { SCOPES } from "@/lib/api-keys/scopes";

const FAMILIES = [...new Set(SCOPES.map((s) => s.split(":")[0]!))];

/**
 * What a new key may do: every scope (the default, stored as "*") or the checked ones. Posts its choice as form fields
 * named "scopes" ("*" alone for full access).
 */
export function ScopePicker({ error }: { error?: string | null }) {
  const [limited, setLimited] = useState(false);
  return (
    <fieldset className="mt-4" aria-describedby={error ? "key-scopes-error" : undefined}>
      <legend className="text-sm font-medium text-slate-900">Access</legend>
      <div className="mt-2 flex flex-col gap-2 text-sm text-slate-700 sm:flex-row sm:gap-6">
        <label className="flex items-center gap-2">
          <input type="radio" name="access" value="full" checked={!limited} onChange={() => setLimited(false)} />
          Full access (every scope)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="access" value="limited" checked={limited} onChange={() => setLimited(true)} />
          Only the scopes I choose
        </label>
      </div>
      {limited ? (
        <div className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2" data-testid="scope-checkboxes">
          {FAMILIES.map((family) => (
            <div key={family} className="flex flex-wrap items-center gap-x-4 text-sm text-slate-700">
              <span className="w-28 font-medium capitalize text-slate-900">{family.replace("-", " ")}</span>
              {SCOPES.filter((s) => s.startsWith(`${family}:`)).map((scope) => (
                <label key={scope} className="flex items-center gap-1.5">
                  <input type="checkbox" name="scopes" value={scope} aria-label={scope} />
                  {scope.split(":")[1]}
                </label>
              ))}
            </div>
          ))}
        </div>
      ) : (
        <input type="hidden" name="scopes" value="*" />
      )}
      {error ? (
        <p id="key-scopes-error" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
