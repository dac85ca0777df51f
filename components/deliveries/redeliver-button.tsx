"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { redeliverAction } from "@/lib/webhooks/delivery-actions";
import { Button } from "@/components/ui";

/** Sends the same payload again as a new delivery and opens it. */
export function RedeliverButton({ id }: { id: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function redeliver() {
    setPending(true);
    setError(null);
    const result = await redeliverAction(id);
    if (!result.ok) {
      setError(result.error);
      setPending(false);
      return;
    }
    router.push(`/deliveries/${result.data.id}`);
  }
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <Button variant="secondary" onClick={redeliver} disabled={pending}>
        {pending ? "Redelivering…" : "Redeliver"}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      ) : null}
    </span>
  );
}
