"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { signUpAction } from "@/lib/auth/actions";
import { Alert, Button, Field, fieldName, inputClass, withoutError } from "@/components/ui";

/** `callbackUrl` (a same-origin path) is where the new user goes once signed in, e.g. back to an invitation. */
export function SignUpForm({ callbackUrl = "/trackables", email }: { callbackUrl?: string; email?: string } = {}) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const input = {
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    };
    setPending(true);
    setError(null);
    setErrors({});
    try {
      const result = await signUpAction(input);
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setError(result.error ?? null);
        return;
      }
      const res = await signIn("credentials", { email: input.email, password: input.password, redirect: false });
      if (!res || res.error) {
        setError("Your account was created, but signing in failed. Sign in with your new password.");
        return;
      }
      router.replace(callbackUrl);
      router.refresh();
    } catch {
      setError("Something went wrong. Try again.");
    } finally {
      setPending(false);
    }
  }

  const invalid = (name: string) => (errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">Create your account</h1>
      <p className="mt-1 text-sm text-slate-600">
        Already have one?{" "}
        <Link href={callbackUrl === "/trackables" ? "/sign-in" : `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`} className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </p>
      <form onSubmit={onSubmit} onChange={(e) => setErrors((prev) => withoutError(prev, fieldName(e)))} className="mt-6 space-y-4" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <Field id="name" label="Name" error={errors.name}>
          <input id="name" name="name" autoComplete="name" className={inputClass} {...invalid("name")} />
        </Field>
        <Field id="email" label="Email" error={errors.email}>
          <input id="email" name="email" type="email" autoComplete="email" defaultValue={email} required className={inputClass} {...invalid("email")} />
        </Field>
        <Field id="password" label="Password" hint="At least 10 characters." error={errors.password}>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            className={inputClass}
            {...invalid("password")}
          />
        </Field>
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Creating your account…" : "Create account"}
        </Button>
      </form>
    </div>
  );
}
