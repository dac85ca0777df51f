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
import { CopyButton } from "@/components/ui/copy-button";
import type { Webhook } from "@/lib/webhooks/schemas";
import { EVENT_KINDS } from "./events";

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

const OVERLAPS = [
  { seconds: 0, label: "Stop the current secret now" },
  { seconds: 3600, label: "Keep it for 1 hour" },
  { seconds: 86_400, label: "Keep it for 24 hours" },
  { seconds: 604_800, label: "Keep it for 7 days" },
] as const;

type Result<T> = { ok: true; data: T } | { ok: false; error: string };

/** Rotation of a signing secret (an endpoint's or a geofence's webhook): the new secret is shown once. */
export function RotateSecret({
  idPrefix,
  hasSecret,
  rotate,
}: {
  idPrefix: string;
  hasSecret: boolean;
  rotate: (input: { expireCurrentIn: number }) => Promise<Result<{ secret: string; previousSecretExpiresAt: string | null }>>;
}) {
  const [overlap, setOverlap] = useState<number>(86_400);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | null } | null>(null);
  async function run() {
    setPending(true);
    setError(null);
    try {
      const r = await rotate({ expireCurrentIn: overlap });
      if (r.ok) setRotated(r.data);
      else setError(r.error);
    } finally {
      setPending(false);
    }
  }
  return (
    <Card className="space-y-3 p-5" aria-labelledby={`${idPrefix}-rotate-title`}>
      <h2 id={`${idPrefix}-rotate-title`} className="text-sm font-semibold text-slate-900">
        Rotate the signing secret
      </h2>
      <p className="text-xs text-slate-500">
        Generates a new <code>whsec_</code> secret that signs from now on. {hasSecret ? "The current one can keep signing beside it for a while, so your receiver can switch without missing a delivery." : ""}
      </p>
      {rotated ? (
        <div className="space-y-2" data-testid="rotated-secret">
          <Alert tone="success">New secret created. Copy it now: it is not shown again.</Alert>
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-900" data-testid="new-secret">
              {rotated.secret}
            </code>
            <CopyButton value={rotated.secret} label="Copy new secret" />
          </div>
          <p className="text-xs text-slate-600" data-testid="previous-expiry">
            {rotated.previousSecretExpiresAt ? (
              <>
                The previous secret stops working at <Time value={rotated.previousSecretExpiresAt} />.
              </>
            ) : hasSecret ? (
              "The previous secret stopped working now."
            ) : (
              "Deliveries are signed from now on."
            )}
          </p>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {hasSecret ? (
            <>
              <label htmlFor={`${idPrefix}-rotate-overlap`} className="sr-only">
                How long the current secret keeps working
              </label>
              <select id={`${idPrefix}-rotate-overlap`} className={cx(inputClass, "max-w-64")} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
                {OVERLAPS.map((o) => (
                  <option key={o.seconds} value={o.seconds}>
                    {o.label}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <Button variant="secondary" onClick={run} disabled={pending}>
            {pending ? "Rotating…" : "Rotate secret"}
          </Button>
        </div>
      )}
      {error ? <Alert>{error}</Alert> : null}
    </Card>
  );
}

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
  recover: (input: { since: string }) => Promise<Result<{ redelivered: number }>>;
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
