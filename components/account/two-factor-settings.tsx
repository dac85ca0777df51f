"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { beginTwoFactorAction, disableTwoFactorAction, enableTwoFactorAction } from "@/lib/auth/actions";
import { Alert, Button, Field, inputClass } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";

type Setup = { secret: string; qr: string; url: string };

/** Turns two-factor sign-in on (QR code or text secret, then a code) or off (a code), and shows recovery codes once. */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const router = useRouter();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function run<T extends { ok: boolean; error?: string }>(action: () => Promise<T>, then: (result: T) => void) {
    setPending(true);
    setError(null);
    try {
      const result = await action();
      if (!result.ok) setError(result.error ?? "Something went wrong. Try again.");
      else then(result);
    } finally {
      setPending(false);
    }
  }
  const codeOf = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    return String(new FormData(e.currentTarget).get("code") ?? "");
  };

  if (recoveryCodes) {
    return (
      <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="recovery-codes-panel">
        <p className="text-sm font-semibold text-amber-900">Two-factor sign-in is on. Save your recovery codes now</p>
        <p className="mt-1 text-sm text-amber-800">
          Each works once instead of a code if you lose your authenticator. You won’t see them again: only hashes are stored.
        </p>
        <ul className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm text-slate-900" aria-label="Recovery codes" data-testid="recovery-codes">
          {recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <div className="mt-3 flex gap-2">
          <CopyButton value={recoveryCodes.join("\n")} size="md" />
          <Button variant="ghost" onClick={() => { setRecoveryCodes(null); router.refresh(); }}>
            I saved them
          </Button>
        </div>
      </div>
    );
  }

  if (enabled) {
    return (
      <form onSubmit={(e) => { const code = codeOf(e); void run(() => disableTwoFactorAction({ code }), () => router.refresh()); }} className="space-y-3" noValidate>
        <p className="text-sm text-slate-700">
          Two-factor sign-in is <strong>on</strong>: signing in asks for a code from your authenticator app after the password.
        </p>
        {error ? <Alert>{error}</Alert> : null}
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="sm:w-64">
            <Field id="disable-code" label="Code to turn it off" hint="A current code or an unused recovery code.">
              <input id="disable-code" name="code" autoComplete="one-time-code" maxLength={64} aria-describedby="disable-code-hint" className={inputClass} />
            </Field>
          </div>
          <Button type="submit" variant="secondary" disabled={pending} className="sm:mb-5">
            Turn off
          </Button>
        </div>
      </form>
    );
  }

  if (!setup) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">Two-factor sign-in is off. With it on, signing in also asks for a code from an authenticator app.</p>
        {error ? <Alert>{error}</Alert> : null}
        <Button onClick={() => void run(beginTwoFactorAction, (r) => r.ok && setSetup(r))} disabled={pending}>
          Set up two-factor sign-in
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={(e) => { const code = codeOf(e); void run(() => enableTwoFactorAction({ code }), (r) => r.ok && setRecoveryCodes(r.recoveryCodes ?? [])); }} className="space-y-4" noValidate>
      <p className="text-sm text-slate-700">Scan the QR code with your authenticator app, or type the key into it.</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img src={setup.qr} alt="QR code for your authenticator app" width={160} height={160} className="rounded border border-slate-200" data-testid="totp-qr" />
        <div className="min-w-0 space-y-1 text-sm">
          <p className="font-medium text-slate-900">Key</p>
          <code className="block break-all rounded bg-slate-100 px-2 py-1 text-slate-800" data-testid="totp-secret">{setup.secret}</code>
          <CopyButton value={setup.secret} size="md" />
        </div>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-64">
          <Field id="enable-code" label="Code from the app" hint="6 digits; it changes every 30 seconds.">
            <input id="enable-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} aria-describedby="enable-code-hint" className={inputClass} />
          </Field>
        </div>
        <Button type="submit" disabled={pending} className="sm:mb-5">
          Turn on
        </Button>
      </div>
    </form>
  );
}
