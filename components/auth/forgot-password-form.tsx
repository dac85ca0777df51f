"use client";
import Link from "next/link";
import { useState } from "react";
import { forgotPasswordAction } from "@/lib/auth/actions";
import { Alert, Button, Field, inputClass } from "@/components/ui";

export function ForgotPasswordForm() {
  const [error, setError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("email") ?? "");
    setPending(true);
    setError(null);
    setEmailError(null);
    try {
      const result = await forgotPasswordAction({ email });
      if (result.ok) setSentTo(email);
      else {
        setEmailError(result.fieldErrors?.email ?? null);
        setError(result.error ?? null);
      }
    } catch {
      setError("Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">Reset your password</h1>
      <p className="mt-1 text-sm text-slate-600">
        Remembered it?{" "}
        <Link href="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </p>
      {sentTo ? (
        <div className="mt-6">
          <Alert tone="success">
            If an account uses {sentTo}, a link to set a new password is on its way. It works once, for one hour.
          </Alert>
        </div>
      ) : (
        <form onSubmit={onSubmit} onChange={() => setError(null)} className="mt-6 space-y-4" noValidate>
          {error ? <Alert>{error}</Alert> : null}
          <Field id="email" label="Email" error={emailError ?? undefined}>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              required
              className={inputClass}
              {...(emailError ? { "aria-invalid": true, "aria-describedby": "email-error" } : {})}
            />
          </Field>
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? "Sending…" : "Mail me a reset link"}
          </Button>
        </form>
      )}
    </div>
  );
}
