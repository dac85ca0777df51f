"use client";
// The actions of a saved account endpoint beside its form: re-enable when the service switched it off, send a test,
// rotate the signing secret (the new one is shown once), and recover the deliveries that failed since a time.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  recoverWebhookAction,
  rotateWebhookSecretAction,
  sendEndpointTestAction,
  updateWebhookAction,
} from "@/lib/webhooks/actions";
import { Alert, Button, Card, Time, cx, inputClass } from "@/components/ui";
import type { Webhook } from "@/lib/webhooks/schemas";
import { EVENT_KINDS } from "./events";
import { Recover } from "./recover-deliveries";
import { RotateSecret } from "./rotate-secret";

/** Why the service switched the endpoint off, with the one action that undoes it. */
export function DisabledBanner({ webhook }: { webhook: Webhook }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!webhook.disabledAt) return null;
  async function reEnable() {
    setPending(true);
    setError(null);
    try {
      const result = await updateWebhookAction(webhook.id, { enabled: true });
      if (!result.ok) setError(result.error);
      else router.refresh();
    } finally {
      setPending(false);
    }
  }
  return (
    <div role="alert" data-testid="disabled-banner" className="mb-4 max-w-2xl rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
      <p className="font-semibold">This endpoint was switched off and receives nothing.</p>
      <p className="mt-1">
        {webhook.disabledReason === "gone"
          ? "It answered 410 Gone, which says the endpoint no longer exists."
          : "Its deliveries kept failing: too many in a row ended failed."}{" "}
        Switched off <Time value={webhook.disabledAt} />. Fix the receiver, re-enable the endpoint, then recover the deliveries that
        failed meanwhile (below).
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Button size="sm" onClick={reEnable} disabled={pending}>
          {pending ? "Re-enabling…" : "Re-enable"}
        </Button>
        {error ? <span className="text-xs text-red-700">{error}</span> : null}
      </div>
    </div>
  );
}

type Outcome = { ok: boolean; message: string; deliveryId?: string };

export function EndpointTools({ webhook }: { webhook: Webhook }) {
  return (
    <div className="mt-6 grid max-w-2xl gap-6">
      <SendTest webhookId={webhook.id} />
      <RotateSecret idPrefix="wh" hasSecret={webhook.secretSet} rotate={(input) => rotateWebhookSecretAction(webhook.id, input)} />
      <Recover idPrefix="wh" historyHref={`/deliveries?webhook=${webhook.id}`} recover={(input) => recoverWebhookAction(webhook.id, input)} target="endpoint" />
    </div>
  );
}

function SendTest({ webhookId }: { webhookId: string }) {
  const [event, setEvent] = useState<string>("location.updated");
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<Outcome | null>(null);
  async function send() {
    setPending(true);
    setResult(null);
    try {
      const r = await sendEndpointTestAction(webhookId, { event });
      setResult(r.ok ? { ok: r.data.answer.success, message: r.data.answer.message, deliveryId: r.data.deliveryId } : { ok: false, message: r.error });
    } finally {
      setPending(false);
    }
  }
  return (
    <Card className="space-y-3 p-5" aria-labelledby="wh-test-title">
      <h2 id="wh-test-title" className="text-sm font-semibold text-slate-900">
        Send test
      </h2>
      <p className="text-xs text-slate-500">One signed delivery of a sample event (no retries), recorded in the history as a test.</p>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="wh-test-event" className="sr-only">
          Event to send
        </label>
        <select id="wh-test-event" className={cx(inputClass, "max-w-56")} value={event} onChange={(e) => setEvent(e.target.value)}>
          {EVENT_KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.value}
            </option>
          ))}
        </select>
        <Button variant="secondary" onClick={send} disabled={pending}>
          {pending ? "Sending…" : "Send test"}
        </Button>
      </div>
      {result ? (
        <Alert tone={result.ok ? "success" : "error"}>
          {result.message}{" "}
          {result.deliveryId ? (
            <Link className="font-medium underline" href={`/deliveries/${result.deliveryId}`}>
              {result.ok ? "View the delivery" : "View the failed delivery"}
            </Link>
          ) : null}
        </Alert>
      ) : null}
    </Card>
  );
}
