"use client";
// The trackable page's share links: create one with an expiry, copy it, and revoke it. Active links only.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { until } from "@/components/share/format";
import { Alert, Button, Card, EmptyState, Field, Time, cx, fieldName, inputClass, withoutError } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { createShareLinkAction, revokeShareLinkAction } from "@/lib/share-links/actions";
import type { ShareLink } from "@/lib/share-links/schemas";

const HOUR = 3600;
const PRESETS = [
  { id: "1h", label: "1 hour", seconds: HOUR },
  { id: "24h", label: "24 hours", seconds: 24 * HOUR },
  { id: "7d", label: "7 days", seconds: 7 * 24 * HOUR },
  { id: "30d", label: "30 days", seconds: 30 * 24 * HOUR },
  { id: "custom", label: "Custom", seconds: null },
] as const;
type PresetId = (typeof PRESETS)[number]["id"];

/** A Date as the value of <input type="datetime-local"> (the browser's local time, to the minute). */
function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ShareLinksPanel({ trackableId, initialLinks }: { trackableId: string; initialLinks: ShareLink[] }) {
  const router = useRouter();
  const [links, setLinks] = useState(initialLinks);
  const [created, setCreated] = useState<ShareLink | null>(null);
  const [preset, setPreset] = useState<PresetId>("24h");
  const [custom, setCustom] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Relative times only in the browser (the server's clock and time zone would not match the hydrated HTML).
  const [now, setNow] = useState<number | null>(null);

  useEffect(() => setLinks(initialLinks), [initialLinks]);
  useEffect(() => {
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(tick);
  }, []);

  async function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    setFieldErrors({});
    setError(null);
    const expiry: { expiresIn?: number; expiresAt?: string } = {};
    if (preset === "custom") {
      const at = new Date(custom);
      if (!custom || Number.isNaN(at.getTime())) {
        setFieldErrors({ expiresAt: "Pick a date and time." });
        return;
      }
      expiry.expiresAt = at.toISOString();
    } else {
      expiry.expiresIn = PRESETS.find((p) => p.id === preset)!.seconds!;
    }
    setPending(true);
    try {
      const result = await createShareLinkAction({ trackableId, ...(name ? { name } : {}), ...expiry });
      if (!result.ok) {
        setFieldErrors(result.fieldErrors);
        if (!result.fieldErrors.name && !result.fieldErrors.expiresAt) setError(result.error);
        return;
      }
      setCreated(result.data);
      setLinks((current) => [result.data, ...current.filter((l) => l.id !== result.data.id)]);
      form.reset();
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  async function onRevoke(link: ShareLink) {
    setError(null);
    const result = await revokeShareLinkAction({ id: link.id });
    // Already revoked elsewhere ("conflict"): the link is gone either way.
    if (!result.ok && result.code !== "conflict" && result.code !== "not_found") {
      setError(result.error);
      return;
    }
    setLinks((current) => current.filter((l) => l.id !== link.id));
    if (created?.id === link.id) setCreated(null);
    router.refresh();
  }

  const active = links.filter((l) => !l.revokedAt && (now === null || Date.parse(l.expiresAt) > now));
  const minCustom = now === null ? undefined : localInputValue(new Date(now + 2 * 60_000));
  const maxCustom = now === null ? undefined : localInputValue(new Date(now + 30 * 24 * HOUR * 1000 - 60_000));

  return (
    <Card className="p-5" aria-labelledby="share-links-title">
      <h2 id="share-links-title" className="text-base font-semibold text-slate-900">
        Share live location
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Anyone with a link sees this trackable&apos;s name and live position, without signing in, until the link expires
        or you revoke it.
      </p>

      <form
        onSubmit={onCreate}
        onChange={(e) => {
          const name = fieldName(e);
          setFieldErrors((prev) => withoutError(prev, name === "expiry" ? "expiresAt" : name));
        }}
        className="mt-4 space-y-4"
        noValidate
      >
        <Field id="share-name" label="Name (optional)" hint="Who the link is for, e.g. “Customer 4711”." error={fieldErrors.name}>
          <input
            id="share-name"
            name="name"
            maxLength={100}
            className={inputClass}
            aria-invalid={fieldErrors.name ? true : undefined}
            aria-describedby={fieldErrors.name ? "share-name-error" : "share-name-hint"}
          />
        </Field>

        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Expires after</legend>
          <div className="mt-1 flex flex-wrap gap-2">
            {PRESETS.map((p) => (
              <label
                key={p.id}
                className={cx(
                  "cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600",
                  preset === p.id ? "bg-indigo-50 text-indigo-700 ring-indigo-300" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50",
                )}
              >
                <input
                  type="radio"
                  name="expiry"
                  value={p.id}
                  checked={preset === p.id}
                  onChange={() => setPreset(p.id)}
                  className="sr-only"
                />
                {p.label}
              </label>
            ))}
          </div>
          {preset === "custom" && (
            <div className="mt-3 sm:w-72">
              <Field id="share-expires-at" label="Expires at" hint="Your local time; up to 30 days from now." error={fieldErrors.expiresAt}>
                <input
                  id="share-expires-at"
                  name="expiresAt"
                  type="datetime-local"
                  value={custom}
                  min={minCustom}
                  max={maxCustom}
                  onChange={(e) => setCustom(e.target.value)}
                  className={inputClass}
                  aria-invalid={fieldErrors.expiresAt ? true : undefined}
                  aria-describedby={fieldErrors.expiresAt ? "share-expires-at-error" : "share-expires-at-hint"}
                />
              </Field>
            </div>
          )}
          {preset !== "custom" && fieldErrors.expiresAt && (
            <p role="alert" className="mt-1 text-xs text-red-600">
              {fieldErrors.expiresAt}
            </p>
          )}
        </fieldset>

        {error && <Alert>{error}</Alert>}
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create link"}
        </Button>
      </form>

      {created && (
        <div className="mt-5 rounded-lg bg-emerald-50 p-4 ring-1 ring-inset ring-emerald-200" role="status">
          <p className="text-sm font-medium text-emerald-900">Link created. Copy it and send it to whoever should follow along.</p>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <input
              readOnly
              value={created.url}
              aria-label="New share link"
              data-testid="new-share-link"
              onFocus={(e) => e.currentTarget.select()}
              className={cx(inputClass, "font-mono text-xs")}
            />
            <CopyButton value={created.url} size="md" />
          </div>
        </div>
      )}

      <h3 className="mt-6 text-sm font-semibold text-slate-900">Active links</h3>
      {active.length === 0 ? (
        <div className="mt-2">
          <EmptyState title="No active links">Links you create appear here until they expire or you revoke them.</EmptyState>
        </div>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" aria-label="Active share links">
          {active.map((link) => (
            <li key={link.id} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="text-sm font-medium break-words text-slate-900">{link.name ?? "Untitled link"}</p>
                <p className="font-mono text-xs break-all text-slate-600" title={link.url}>
                  {link.url}
                </p>
                <p className="mt-0.5 text-xs text-slate-500">
                  Expires {now !== null && <>{until(Date.parse(link.expiresAt), now)} · </>}
                  <Time value={link.expiresAt} />
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <CopyButton value={link.url} />
                <ConfirmButton
                  label="Revoke"
                  title="Revoke this link?"
                  confirmLabel="Revoke link"
                  onConfirm={() => onRevoke(link)}
                >
                  Anyone who opens it will see “This link is no longer valid”. This cannot be undone; you can create a new
                  link at any time.
                </ConfirmButton>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
