"use client";
// A saved geofence's webhook tools (Enterprise): a signed test delivery, rotating the secret, recovering failed
// deliveries, and the link to its delivery history. Keyed by the geofence's version: a save clears the test's answer.
import Link from "next/link";
import { useState } from "react";
import { recoverGeofenceAction, rotateGeofenceSecretAction, sendTestWebhookAction } from "@/lib/geofences/actions";
import { Recover } from "@/components/webhooks/recover-deliveries";
import { RotateSecret } from "@/components/webhooks/rotate-secret";
import type { Geofence } from "@/lib/geofences/schemas";
import { TestWebhook, type TestResult } from "./test-webhook";

export function GeofenceWebhookTools({ geofence, dirty }: { geofence: Geofence; dirty: boolean }) {
  const [event, setEvent] = useState<"entry" | "exit">("entry");
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);

  async function send() {
    setPending(true);
    setResult(null);
    try {
      const answer = await sendTestWebhookAction(geofence.id, { eventType: event });
      if (!answer.ok) setResult({ ok: false, message: answer.error });
      else setResult({ ok: answer.data.answer.success, message: answer.data.answer.message, deliveryId: answer.data.deliveryId });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      {geofence.notificationType === "webhook" ? (
        <>
          <TestWebhook geofenceId={geofence.id} event={event} onEvent={setEvent} pending={pending} disabled={dirty} result={result} onSend={send} />
          <div className="mt-5 grid gap-4">
            <RotateSecret idPrefix="gf" hasSecret={geofence.webhookSecretSet} rotate={(input) => rotateGeofenceSecretAction(geofence.id, input)} />
            <Recover
              idPrefix="gf"
              target="geofence's webhook"
              historyHref={`/deliveries?geofence=${geofence.id}`}
              recover={(input) => recoverGeofenceAction(geofence.id, input)}
            />
          </div>
        </>
      ) : null}
      <p className="mt-4 text-sm">
        <Link className="font-medium text-indigo-700 hover:underline" href={`/deliveries?geofence=${geofence.id}`}>
          Delivery history of this geofence →
        </Link>
      </p>
    </>
  );
}
