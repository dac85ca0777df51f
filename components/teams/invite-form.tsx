"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert, Button, Field, fieldName, inputClass, withoutError } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import { inviteMemberAction } from "@/lib/teams/actions";

/** The invitation form; the link it makes is shown here once (its token is stored only as a hash). */
export function InviteForm() {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ email: string; link: string; mailed: boolean } | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setPending(true);
    setError(null);
    setErrors({});
    try {
      const result = await inviteMemberAction({ email: String(data.get("email") ?? ""), role: String(data.get("role") ?? "") });
      if (!result.ok) {
        setErrors(result.fieldErrors);
        if (Object.keys(result.fieldErrors).length === 0) setError(result.error);
        return;
      }
      setCreated({ email: result.data.invitation.email, link: result.data.link, mailed: result.data.mailed });
      form.reset();
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  const invalid = (name: string) => (errors[name] ? { "aria-invalid": true, "aria-describedby": `invite-${name}-error` } : {});
  return (
    <div className="space-y-3">
      <form onSubmit={onSubmit} onChange={(e) => setErrors((prev) => withoutError(prev, fieldName(e)))} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="sm:w-72">
          <Field id="invite-email" label="Email" error={errors.email}>
            <input id="invite-email" name="email" type="email" autoComplete="off" required className={inputClass} {...invalid("email")} />
          </Field>
        </div>
        <div className="sm:w-40">
          <Field id="invite-role" label="Role" error={errors.role}>
            <select id="invite-role" name="role" defaultValue="member" className={inputClass} {...invalid("role")}>
              <option value="admin">Admin</option>
              <option value="member">Member</option>
              <option value="viewer">Viewer</option>
            </select>
          </Field>
        </div>
        <Button type="submit" disabled={pending} className="sm:mt-6">
          {pending ? "Inviting…" : "Invite"}
        </Button>
      </form>
      {error ? <Alert>{error}</Alert> : null}
      {created ? (
        <Alert tone="success">
          <span className="block">
            Invitation for {created.email}
            {created.mailed ? " mailed." : " made."} Its link is shown only now:
          </span>
          <code className="mt-1 block break-all" data-testid="invitation-link">
            {created.link}
          </code>
          <span className="mt-2 block">
            <CopyButton value={created.link} label="Copy link" />
          </span>
        </Alert>
      ) : null}
    </div>
  );
}
