"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert, inputClass } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { changeRoleAction, removeMemberAction, transferOwnershipAction } from "@/lib/teams/actions";
import type { Role } from "@/lib/teams/roles";

const GRANTABLE = [
  { value: "admin", label: "Admin" },
  { value: "member", label: "Member" },
  { value: "viewer", label: "Viewer" },
] as const;

/** One member's role picker, "Remove" and (for the owner) "Make owner"; the server checks each again. */
export function MemberControls({ member, canTransfer }: { member: { id: string; label: string; role: Role }; canTransfer: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const done = (result: { ok: boolean; error?: string }) => {
    if (!result.ok) setError(result.error ?? "Something went wrong. Try again.");
    else {
      setError(null);
      router.refresh();
    }
  };
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <label className="sr-only" htmlFor={`role-${member.id}`}>
        Role of {member.label}
      </label>
      <select
        id={`role-${member.id}`}
        className={`${inputClass} w-auto py-1.5 text-xs`}
        defaultValue={member.role}
        onChange={async (e) => done(await changeRoleAction({ userId: member.id, role: e.target.value }))}
      >
        {GRANTABLE.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
      <ConfirmButton label="Remove" title={`Remove ${member.label}?`} confirmLabel="Remove" onConfirm={async () => done(await removeMemberAction({ userId: member.id }))}>
        They lose access to this workspace at once. Invite them again to bring them back.
      </ConfirmButton>
      {canTransfer ? (
        <ConfirmButton
          label="Make owner"
          title={`Make ${member.label} the owner?`}
          confirmLabel="Transfer ownership"
          onConfirm={async () => done(await transferOwnershipAction({ userId: member.id }))}
        >
          They can then delete the workspace and manage everyone in it. You stay as an admin.
        </ConfirmButton>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
