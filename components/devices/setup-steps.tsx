"use client";
// What a tracking app needs to post to Fenceline: each app's settings step by step (with the token when it was just
// created), the set-up QR code where the app has one, and why a phone cannot reach APP_URL when it cannot.
import QRCode from "qrcode";
import { useEffect, useState, type ReactNode } from "react";
import { cx } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import {
  gpsloggerUrl,
  HTTPS_ONLY_APPS,
  ingestUrl,
  osmandUrl,
  OWNTRACKS_USERNAME,
  phoneReach,
  type SetupApp,
} from "@/lib/devices/setup";

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-xs break-all text-slate-800";

/** A value to type into the app, with a copy button; long values wrap instead of scrolling sideways. */
export function Value({ label, value, testId }: { label: string; value: string; testId?: string }) {
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
export function Steps({ app, appUrl, token }: { app: SetupApp; appUrl: string; token: string | null }) {
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
export function PhoneReachNote({ appUrl, app }: { appUrl: string; app: SetupApp }) {
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
export function SetupQr({ link, label }: { link: string; label: string }) {
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

export const QR_LABEL: Partial<Record<SetupApp, string>> = {
  owntracks: "Scan with the camera: OwnTracks opens and imports HTTP mode, the URL and the credentials",
  overland: "Scan with the camera: Overland opens and saves the endpoint and the token",
  "traccar-client":
    "Scan with the camera or in Traccar Client (Settings → QR code): it sets the server URL and the device identifier (Traccar Client 9.6 or later)",
};
