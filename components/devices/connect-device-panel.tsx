"use client";
// The trackable page's "Connect a device": pick the tracking app, create a token (shown once), scan the set-up QR code
// where the app has one or follow its settings; the trackable's tokens with their last use, and revoke.
import { useRouter } from "next/navigation";
import QRCode from "qrcode";
import { useEffect, useState, type ReactNode } from "react";
import { Alert, Button, Card, Field, Time, cx } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { createDeviceTokenAction, revokeDeviceTokenAction } from "@/lib/devices/actions";
import type { CreatedDeviceToken, DeviceToken } from "@/lib/devices/schemas";
import {
  gpsloggerUrl,
  HTTPS_ONLY_APPS,
  ingestUrl,
  osmandUrl,
  OWNTRACKS_USERNAME,
  phoneReach,
  setupLink,
  SETUP_APPS,
  type SetupApp,
} from "@/lib/devices/setup";

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-xs break-all text-slate-800";

/** A value to type into the app, with a copy button; long values wrap instead of scrolling sideways. */
function Value({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="mt-1 flex items-start gap-2">
      <code className={cx(code, "block min-w-0 flex-1 py-1.5")} data-testid={testId} aria-label={label}>
        {value}
      </code>
      <CopyButton value={value} />
    </div>
  );
}

/** The settings of one app, with the token when it was just created (otherwise a placeholder that says where it goes). */
function Steps({ app, appUrl, token }: { app: SetupApp; appUrl: string; token: string | null }) {
  const t = token ?? "<device token>";
  const steps: Record<SetupApp, ReactNode[]> = {
    owntracks: [
      <>Settings → Connection → Mode: <strong>HTTP</strong>.</>,
      <>URL: <Value label="OwnTracks URL" value={ingestUrl(appUrl, "owntracks")} /></>,
      <>Identification → Username: <code className={code}>{OWNTRACKS_USERNAME}</code> (any name works), Password: the token.</>,
    ],
    "traccar-client": [
      <>Settings → Server URL: <Value label="Traccar Client server URL" value={ingestUrl(appUrl, "traccar-client")} /></>,
      <>Device identifier: the token.</>,
      <>Turn on continuous tracking; the app posts each position (Traccar Client 9 as JSON, older versions as a query string).</>,
    ],
    overland: [
      <>Settings → Server URL → Receiver endpoint: <Value label="Overland endpoint" value={ingestUrl(appUrl, "overland")} /></>,
      <>Access token: the token (Overland sends it as a Bearer token).</>,
      <>Logging mode “All data” sends batches; Fenceline answers <code className={code}>{`{"result":"ok"}`}</code> once they are stored.</>,
    ],
    gpslogger: [
      <>Logging details → Log to custom URL: on; HTTP method GET.</>,
      <>URL: <Value label="GPSLogger URL" value={gpsloggerUrl(appUrl, t)} /></>,
      <>No speed: GPSLogger has no placeholder in knots, the unit this protocol uses.</>,
    ],
    osmand: [
      <>Plugins → Trip recording → Online tracking: on.</>,
      <>Web address: <Value label="OsmAnd web address" value={osmandUrl(appUrl, t)} /></>,
    ],
  };
  return (
    <ol className="mt-3 space-y-2 text-sm text-slate-700" data-testid="device-steps">
      {steps[app].map((step, i) => (
        <li key={i} className="flex gap-2">
          <span className="font-medium text-slate-900">{i + 1}.</span>
          <div className="min-w-0 flex-1">{step}</div>
        </li>
      ))}
    </ol>
  );
}

/** Why the URLs below will not work from a phone, when APP_URL is this machine's loopback name or plain http. */
function PhoneReachNote({ appUrl, app }: { appUrl: string; app: SetupApp }) {
  const reach = phoneReach(appUrl);
  if (!reach) return null;
  const needsHttps = reach.plainHttp && HTTPS_ONLY_APPS.includes(app);
  return (
    <div className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset" data-testid="phone-reach-note">
      <p className="font-medium">A phone cannot use these URLs as they are.</p>
      <ul className="mt-1 list-disc space-y-1 pl-4">
        {reach.loopback ? (
          <li>
            They point at <code className={code}>{new URL(appUrl).host}</code>, which on a phone is the phone itself. Set APP_URL to this
            server&apos;s address on your network (e.g. http://192.168.1.20:3000) or to a public https URL, and restart.
          </li>
        ) : null}
        {reach.plainHttp ? (
          <li className={needsHttps ? "font-medium" : undefined}>
            They use plain http. OwnTracks and Overland need https: give APP_URL a public https URL (e.g. behind a reverse
            proxy with a certificate). Traccar Client, GPSLogger and OsmAnd also work over http on your network.
          </li>
        ) : null}
      </ul>
    </div>
  );
}

/** The set-up link as a QR code (a PNG data URL) for the phone's camera or the app's scanner. */
function SetupQr({ link, label }: { link: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(link, { errorCorrectionLevel: "M", margin: 2, width: 232 }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <figure className="mt-3 flex flex-col items-center gap-2 rounded-lg bg-white p-3 ring-1 ring-slate-200">
      {src ? (
        // A plain <img>: a data URL leaves next/image nothing to optimise.
        <img src={src} alt={`QR code: ${label}`} width={232} height={232} data-testid="device-qr" className="size-56" />
      ) : (
        <div className="size-56 animate-pulse rounded bg-slate-100" aria-hidden />
      )}
      <figcaption className="text-center text-xs text-slate-600">{label}</figcaption>
      <a href={link} className="text-xs font-medium text-indigo-600 hover:text-indigo-500">
        On this phone? Open the app with this link instead
      </a>
    </figure>
  );
}

const QR_LABEL: Partial<Record<SetupApp, string>> = {
  owntracks: "Scan with the camera: OwnTracks opens and imports HTTP mode, the URL and the credentials",
  overland: "Scan with the camera: Overland opens and saves the endpoint and the token",
  "traccar-client":
    "Scan with the camera or in Traccar Client (Settings → QR code): it sets the server URL and the device identifier (Traccar Client 9.6 or later)",
};

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
