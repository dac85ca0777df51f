"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { dismissFirstStepsAction } from "@/lib/dashboard/actions";
import { Button } from "@/components/ui";

export function DismissFirstSteps() {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={pending}
      onClick={() =>
        start(async () => {
          await dismissFirstStepsAction();
          router.refresh();
        })
      }
    >
      {pending ? "Hiding…" : "Dismiss"}
    </Button>
  );
}
