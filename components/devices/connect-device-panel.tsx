"use client";
// The trackable page's "Connect a device": pick the tracking app, create a token (shown once), scan the set-up QR code
// where the app has one or follow its settings; the trackable's tokens with their last use, and revoke.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Alert, Button, Card, Field, Time, cx } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { createDeviceTokenAction, revokeDeviceTokenAction } from "@/lib/devices/actions";
import type { CreatedDeviceToken, DeviceToken } from "@/lib/devices/schemas";
import { ingestUrl, setupLink, SETUP_APPS, type SetupApp } from "@/lib/devices/setup";
import { PhoneReachNote, QR_LABEL, SetupQr, Steps, Value } from "./setup-steps";

export function ConnectDevicePanel({
  trackableId,
  appUrl,
  initialTokens,
}: {
  trackableId: string;
  appUrl: string;
  initialTokens: DeviceToken[];
}) {
  const router = useRouter();
  const [app, setApp] = useState<SetupApp>("owntracks");
  const [tokens, setTokens] = useState(initialTokens);
  const [created, setCreated] = useState<(CreatedDeviceToken & { app: SetupApp }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => setTokens(initialTokens), [initialTokens]);
  const label = SETUP_APPS.find((a) => a.id === app)!.label;
  const token = created && created.app === app ? created.token : null;
  const link = token ? setupLink(app, appUrl, token) : null;

  async function onCreate() {
    setError(null);
    setPending(true);
    try {
      const result = await createDeviceTokenAction({ trackableId, name: label });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setCreated({ ...result.data, app });
      setTokens((current) => [result.data, ...current.filter((t) => t.id !== result.data.id)]);
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  async function onRevoke(t: DeviceToken) {
    setError(null);
    const result = await revokeDeviceTokenAction({ trackableId, id: t.id });
    if (!result.ok && result.code !== "not_found") {
      setError(result.error);
      return;
    }
    setTokens((current) => current.filter((x) => x.id !== t.id));
    if (created?.id === t.id) setCreated(null);
    router.refresh();
  }

  return (
    <Card className="p-5" aria-labelledby="connect-device-title" data-testid="connect-device">
      <h2 id="connect-device-title" className="text-base font-semibold text-slate-900">
        Connect a device
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Let a tracking app on a phone post this trackable&apos;s positions directly, with a token that works for this
        trackable only.
      </p>

      <fieldset className="mt-4">
        <legend className="text-sm font-medium text-slate-800">App</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {SETUP_APPS.map((a) => (
            <label
              key={a.id}
              title={a.platforms}
              className={cx(
                "cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600",
                app === a.id ? "bg-indigo-50 text-indigo-700 ring-indigo-300" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50",
              )}
            >
              <input type="radio" name="device-app" value={a.id} checked={app === a.id} onChange={() => setApp(a.id)} className="sr-only" />
              {a.label}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="mt-4">
        <Field id="device-server-url" label="Server URL" hint="Where the app posts: this server's APP_URL.">
          <Value label="Server URL" value={ingestUrl(appUrl, app)} testId="device-server-url" />
        </Field>
        <PhoneReachNote appUrl={appUrl} app={app} />
      </div>

      {token ? (
        <div className="mt-4 rounded-lg bg-emerald-50 p-4 ring-1 ring-inset ring-emerald-200" role="status">
          <p className="text-sm font-medium text-emerald-900">Token created. It is shown this once: copy it or scan the code now.</p>
          <Value label="New device token" value={token} testId="new-device-token" />
          {link ? <SetupQr link={link} label={QR_LABEL[app]!} /> : null}
        </div>
      ) : (
        <div className="mt-4">
          <Button onClick={onCreate} disabled={pending}>
            {pending ? "Creating…" : `Create a token for ${label}`}
          </Button>
        </div>
      )}
      {error ? <div className="mt-3"><Alert>{error}</Alert></div> : null}

      <h3 className="mt-5 text-sm font-semibold text-slate-900">Settings in {label}</h3>
      <Steps app={app} appUrl={appUrl} token={token} />

      <h3 className="mt-6 text-sm font-semibold text-slate-900">Device tokens</h3>
      {tokens.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None yet. A token is shown once, when you create it.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" aria-label="Device tokens">
          {tokens.map((t) => (
            <li key={t.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="device-token">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">{t.name ?? "Unnamed token"}</p>
                <p className="font-mono text-xs text-slate-500">{t.prefix}…</p>
                <p className="mt-0.5 text-xs text-slate-500">
                  Last used <Time value={t.lastUsedAt} fallback="never" />
                </p>
              </div>
              <ConfirmButton label="Revoke" title="Revoke this token?" confirmLabel="Revoke token" onConfirm={() => onRevoke(t)}>
                The app that holds it is refused from its next request on. This cannot be undone; you can create a new token
                at any time.
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
