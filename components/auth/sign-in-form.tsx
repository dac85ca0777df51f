"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert, Button, Field, inputClass } from "@/components/ui";
import { TWO_FACTOR_INVALID, TWO_FACTOR_REQUIRED } from "@/lib/auth/schemas";

export function SignInForm({
  providers,
  callbackUrl,
  initialError,
  canResetPassword,
}: {
  providers: { id: string; name: string }[];
  callbackUrl: string;
  initialError: string | null;
  /** Outgoing mail is configured: "Forgot password?" can mail a reset link. */
  canResetPassword: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);
  // After the right password of a user with two-factor sign-in: the email and password, kept to send with the code.
  const [firstFactor, setFirstFactor] = useState<{ email: string; password: string } | null>(null);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const credentials = firstFactor ?? { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
    setPending(true);
    setError(null);
    const res = await signIn("credentials", {
      ...credentials,
      ...(firstFactor ? { code: String(form.get("code") ?? "") } : {}),
      redirect: false,
    });
    if (!res || res.error) {
      setPending(false);
      if (res?.error === TWO_FACTOR_REQUIRED) setFirstFactor(credentials);
      else if (res?.error === TWO_FACTOR_INVALID) setError("That code is not valid (or was used already). Try the current one.");
      else setError(res?.error && res.error !== "CredentialsSignin" ? res.error : "Wrong email or password.");
      return;
    }
    router.replace(callbackUrl);
    router.refresh();
  }

  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">
        New here?{" "}
        <Link href="/sign-up" className="font-medium text-indigo-600 hover:text-indigo-500">
          Create an account
        </Link>
      </p>
      <form onSubmit={onSubmit} onChange={() => setError(null)} className="mt-6 space-y-4" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        {firstFactor ? (
          <Field id="code" label="Two-factor code" hint="The 6-digit code from your authenticator app, or one of your recovery codes.">
            <input
              id="code"
              name="code"
              inputMode="text"
              autoComplete="one-time-code"
              autoFocus
              required
              maxLength={64}
              aria-describedby="code-hint"
              className={inputClass}
            />
          </Field>
        ) : (
          <>
        <Field id="email" label="Email">
          <input id="email" name="email" type="email" autoComplete="email" required className={inputClass} />
        </Field>
        <Field id="password" label="Password">
          <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
        </Field>
        {canResetPassword ? (
          <p className="-mt-2 text-right text-sm">
            <Link href="/forgot-password" className="font-medium text-indigo-600 hover:text-indigo-500">
              Forgot password?
            </Link>
          </p>
        ) : null}
          </>
        )}
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Signing in…" : firstFactor ? "Verify" : "Sign in"}
        </Button>
      </form>
      {providers.length > 0 ? (
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-6">
          {providers.map((p) => (
            <Button key={p.id} variant="secondary" className="w-full" onClick={() => signIn(p.id, { callbackUrl })}>
              Continue with {p.name}
            </Button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
