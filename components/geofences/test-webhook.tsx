"use client";
import Link from "next/link";
import { Alert, Button, cx, inputClass } from "@/components/ui";

export type TestResult = { ok: boolean; message: string; deliveryId?: string };

export function TestWebhook({
  geofenceId,
  event,
  onEvent,
  pending,
  disabled,
  result,
  onSend,
}: {
  geofenceId: string;
  event: "entry" | "exit";
  onEvent: (e: "entry" | "exit") => void;
  pending: boolean;
  disabled: boolean;
  result: TestResult | null;
  onSend: () => void;
}) {
  return (
    <section className="mt-5 space-y-3 border-t border-slate-100 pt-4" aria-labelledby="gf-test-title">
      <h3 id="gf-test-title" className="text-sm font-semibold text-slate-900">
        Test the webhook
      </h3>
      <p className="text-xs text-slate-500">Sends one signed delivery with this geofence, a sample beacon and a location at the centre.</p>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="gf-test-event" className="sr-only">
          Event to send
        </label>
        <select
          id="gf-test-event"
          className={cx(inputClass, "max-w-48")}
          value={event}
          onChange={(e) => onEvent(e.target.value === "exit" ? "exit" : "entry")}
        >
          <option value="entry">geofence.entry</option>
          <option value="exit">geofence.exit</option>
        </select>
        <Button variant="secondary" onClick={onSend} disabled={pending || disabled}>
          {pending ? "Sending…" : "Send test webhook"}
        </Button>
      </div>
      {disabled ? <p className="text-xs text-amber-700">Save your changes first: the test uses the saved settings.</p> : null}
      {result?.ok ? (
        <Alert tone="success">
          {result.message}.{" "}
          <Link className="font-medium underline" href={`/deliveries/${result.deliveryId}`}>
            View the delivery
          </Link>
        </Alert>
      ) : result ? (
        <Alert>
          {result.message}{" "}
          {result.deliveryId ? (
            <Link className="font-medium underline" href={`/deliveries/${result.deliveryId}`}>
              View the failed delivery
            </Link>
          ) : (
            <Link className="font-medium underline" href={`/deliveries?geofence=${geofenceId}`}>
              See this geofence’s deliveries
            </Link>
          )}
        </Alert>
      ) : null}
    </section>
  );
}
