"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { changePasswordAction } from "@/lib/accounts/actions";
import { Alert, Button, Field, fieldName, inputClass, withoutError } from "@/components/ui";

// Changing the password ends every session of the user (lib/auth/users.ts changePassword); this browser then signs in
// again with the new password, so it stays signed in while copies of the old cookie stop working.
export function ChangePasswordForm() {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const input = { currentPassword: String(data.get("currentPassword") ?? ""), newPassword: String(data.get("newPassword") ?? "") };
    setPending(true);
    setErrors({});
    setError(null);
    setSaved(false);
    try {
      const result = await changePasswordAction(input);
      if (!result.ok) {
        setErrors(result.fieldErrors);
        if (Object.keys(result.fieldErrors).length === 0) setError(result.error);
        return;
      }
      const again = await signIn("credentials", { email: result.data.email, password: input.newPassword, redirect: false });
      if (!again || again.error) {
        router.replace("/sign-in");
        return;
      }
      form.reset();
      setSaved(true);
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} onChange={(e) => setErrors((prev) => withoutError(prev, fieldName(e)))} noValidate className="space-y-4 sm:w-96" aria-label="Change password">
      {error ? <Alert>{error}</Alert> : null}
      <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
        <input
          id="currentPassword"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          className={inputClass}
          aria-invalid={errors.currentPassword ? true : undefined}
        />
      </Field>
      <Field id="newPassword" label="New password" hint="At least 10 characters." error={errors.newPassword}>
        <input
          id="newPassword"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          className={inputClass}
          aria-invalid={errors.newPassword ? true : undefined}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Changing…" : "Change password"}
      </Button>
      {saved ? <Alert tone="success">Password changed. Every other session has been signed out.</Alert> : null}
    </form>
  );
}
