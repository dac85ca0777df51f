"use client";
// Recovery of the deliveries to an account endpoint or a geofence's webhook that failed since a time: each is sent
// again as a new delivery.
import Link from "next/link";
import { useState } from "react";
import { Alert, Button, Card, cx, inputClass } from "@/components/ui";
import type { ActionResult } from "@/lib/dashboard/action";

type Outcome = { ok: boolean; message: string };

/** `datetime-local` value (local time, minutes) of a moment. */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Recovery of the deliveries to a target that failed since a time. */
export function Recover({
  idPrefix,
  target,
  historyHref,
  recover,
}: {
  idPrefix: string;
  target: "endpoint" | "geofence's webhook";
  historyHref: string;
  recover: (input: { since: string }) => Promise<ActionResult<{ redelivered: number }>>;
}) {
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3600_000)));
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<Outcome | null>(null);
  async function run() {
    setPending(true);
    setResult(null);
    try {
      const when = new Date(since);
      if (Number.isNaN(when.getTime())) {
        setResult({ ok: false, message: "Choose a date and time." });
        return;
      }
      const r = await recover({ since: when.toISOString() });
      if (!r.ok) setResult({ ok: false, message: r.error });
      else
        setResult({
          ok: true,
          message: r.data.redelivered === 0 ? "No failed deliveries since then." : `${r.data.redelivered} failed ${r.data.redelivered === 1 ? "delivery" : "deliveries"} sent again.`,
        });
    } finally {
      setPending(false);
    }
  }
  return (
    <Card className="space-y-3 p-5" aria-labelledby={`${idPrefix}-recover-title`}>
      <h2 id={`${idPrefix}-recover-title`} className="text-sm font-semibold text-slate-900">
        Recover failed deliveries since…
      </h2>
      <p className="text-xs text-slate-500">Every delivery to this {target} that ended failed since then (tests excluded) is sent again as a new delivery, to its current URL.</p>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={`${idPrefix}-recover-since`} className="sr-only">
          Recover failed deliveries since
        </label>
        <input id={`${idPrefix}-recover-since`} type="datetime-local" className={cx(inputClass, "max-w-56")} value={since} onChange={(e) => setSince(e.target.value)} />
        <Button variant="secondary" onClick={run} disabled={pending}>
          {pending ? "Recovering…" : "Recover"}
        </Button>
      </div>
      {result ? (
        <Alert tone={result.ok ? "success" : "error"}>
          {result.message}{" "}
          {result.ok ? (
            <Link className="font-medium underline" href={historyHref}>
              Delivery history
            </Link>
          ) : null}
        </Alert>
      ) : null}
    </Card>
  );
}
