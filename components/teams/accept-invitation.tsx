"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert, Button } from "@/components/ui";
import { acceptInvitationAction } from "@/lib/teams/actions";

/** "Join": spends the invitation and opens the workspace just joined. */
export function AcceptInvitation({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <div className="space-y-3">
      {error ? <Alert>{error}</Alert> : null}
      <Button
        className="w-full"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setError(null);
          try {
            const result = await acceptInvitationAction({ token });
            if (!result.ok) return setError(result.error);
            router.replace("/trackables");
            router.refresh();
          } finally {
            setPending(false);
          }
        }}
      >
        {pending ? "Joining…" : "Join the workspace"}
      </Button>
    </div>
  );
}
