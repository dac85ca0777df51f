"use client";
import Link from "next/link";
import { useState } from "react";
import { resetPasswordAction } from "@/lib/auth/actions";
import { Alert, Button, Field, inputClass } from "@/components/ui";

export function ResetPasswordForm({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get("password") ?? "");
    setPending(true);
    setError(null);
    setPasswordError(null);
    try {
      const result = await resetPasswordAction({ token, password });
      if (result.ok) setDone(true);
      else {
        setPasswordError(result.fieldErrors?.password ?? null);
        setError(result.error ?? result.fieldErrors?.token ?? null);
      }
    } catch {
      setError("Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  if (done) {
    return (
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Password changed</h1>
        <div className="mt-6 space-y-4">
          <Alert tone="success">Your new password is set, and every device that was signed in has been signed out.</Alert>
          <Link href="/sign-in" className="block text-center font-medium text-indigo-600 hover:text-indigo-500">
            Sign in with your new password
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">Set a new password</h1>
      <form onSubmit={onSubmit} onChange={() => setError(null)} className="mt-6 space-y-4" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <Field id="password" label="New password" hint="At least 10 characters." error={passwordError ?? undefined}>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            className={inputClass}
            {...(passwordError ? { "aria-invalid": true, "aria-describedby": "password-error" } : {})}
          />
        </Field>
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Saving…" : "Set password"}
        </Button>
      </form>
    </div>
  );
}
