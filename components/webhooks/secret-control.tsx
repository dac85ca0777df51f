"use client";
// A write-only signing secret: the form only ever knows whether one is set. It can be set, replaced or removed, and
// the new value is sent once with the form; the stored secret is never displayed.
import { Badge, Button, cx, inputClass } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";

export type SecretChange = { mode: "keep" } | { mode: "replace"; value: string } | { mode: "remove" };

/** whsec_ + base64 of 32 random bytes, made in the browser: what Standard Webhooks libraries take with default options. */
function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

export function SecretControl({
  id,
  isSet,
  change,
  error,
  onChange,
}: {
  id: string;
  isSet: boolean;
  change: SecretChange;
  error: string | null;
  onChange: (c: SecretChange) => void;
}) {
  const status = change.mode === "remove" ? "Will be removed" : change.mode === "replace" ? (isSet ? "Will be replaced" : "Will be set") : isSet ? "Set" : "Not set";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-800" id={`${id}-label`}>
          Signing secret
        </span>
        <Badge color={isSet && change.mode === "keep" ? "green" : change.mode === "keep" ? "gray" : "yellow"} data-testid={`${id}-status`}>
          {status}
        </Badge>
      </div>
      {change.mode === "keep" ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => onChange({ mode: "replace", value: "" })}>
            {isSet ? "Replace secret" : "Set a secret"}
          </Button>
          {isSet ? (
            <Button variant="ghost" size="sm" onClick={() => onChange({ mode: "remove" })}>
              Remove secret
            </Button>
          ) : null}
        </div>
      ) : change.mode === "replace" ? (
        <div className="space-y-2">
          <label htmlFor={id} className="sr-only">
            New signing secret
          </label>
          <input
            id={id}
            className={cx(inputClass, "font-mono")}
            value={change.value}
            autoComplete="off"
            spellCheck={false}
            placeholder="8–256 characters"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onChange={(e) => onChange({ mode: "replace", value: e.target.value })}
          />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={() => onChange({ mode: "replace", value: generateSecret() })}>
              Generate
            </Button>
            {change.value ? <CopyButton value={change.value} label="Copy secret" /> : null}
            <Button variant="ghost" size="sm" onClick={() => onChange({ mode: "keep" })}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
          Saved deliveries will no longer be signed.
          <Button variant="ghost" size="sm" onClick={() => onChange({ mode: "keep" })}>
            Undo
          </Button>
        </div>
      )}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          When set, every delivery carries webhook-signature (Standard Webhooks) and X-Service-Signature. It is never shown
          again: copy it before saving.
        </p>
      )}
    </div>
  );
}
