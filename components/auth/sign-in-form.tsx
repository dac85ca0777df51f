"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert, Button, Field, inputClass } from "@/components/ui";

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

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    const res = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    if (!res || res.error) {
      setPending(false);
      setError(res?.error && res.error !== "CredentialsSignin" ? res.error : "Wrong email or password.");
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
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
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
