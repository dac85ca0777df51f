"use client";
// A page that failed on the server: say so, offer a retry, never show the error's detail (it is in the server log).
import { useEffect } from "react";
import { Button, ButtonLink, Card } from "@/components/ui";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.warn("[dashboard] page failed", error.digest ?? "");
  }, [error]);
  return (
    <Card className="mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-lg font-semibold text-slate-900">This page could not be loaded</h1>
      <p className="mt-2 text-sm text-slate-600">
        Something went wrong on our side. Try again; if it keeps happening, the server log has the details
        {error.digest ? (
          <>
            {" "}
            (reference <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">{error.digest}</code>)
          </>
        ) : null}
        .
      </p>
      <div className="mt-6 flex justify-center gap-2">
        <Button onClick={reset}>Try again</Button>
        <ButtonLink href="/trackables" variant="secondary">
          Back to trackables
        </ButtonLink>
      </div>
    </Card>
  );
}
