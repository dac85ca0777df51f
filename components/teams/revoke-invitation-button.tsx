"use client";
import { useRouter } from "next/navigation";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { revokeInvitationAction } from "@/lib/teams/actions";

export function RevokeInvitationButton({ id, email }: { id: string; email: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke"
      title={`Revoke the invitation of ${email}?`}
      confirmLabel="Revoke"
      onConfirm={async () => {
        await revokeInvitationAction({ id });
        router.refresh();
      }}
    >
      Its link stops working at once.
    </ConfirmButton>
  );
}
