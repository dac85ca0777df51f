"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import type { MapConfig } from "@/lib/config/map";
import type { PublicShare } from "@/lib/share-links/schemas";
import { ago, coordinates, until } from "./format";
import { LinkInvalid } from "./link-invalid";

// Leaflet touches `window` when it loads: the map is rendered in the browser only.
const ShareMap = dynamic(() => import("./share-map"), {
  ssr: false,
  loading: () => <div className="h-full w-full animate-pulse bg-slate-200" aria-busy="true" />,
});

export const POLL_INTERVAL_MS = 5000;

type Connection = "live" | "reconnecting";

/**
 * The live view of a share link: the map under a card with the trackable, its last update (ticking) and the link's
 * expiry. Polls the public endpoint every 5 s and moves the marker in place; a 404 (or reaching the expiry) switches
 * to "no longer valid".
 */
export function LiveShare({
  token,
  initial,
  renderedAt,
  mapConfig,
}: {
  token: string;
  initial: PublicShare;
  renderedAt: number;
  mapConfig: MapConfig;
}) {
  const [view, setView] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  const [connection, setConnection] = useState<Connection>("live");
  // The server's clock until the first tick, so the first render in the browser matches the HTML.
  const [now, setNow] = useState(renderedAt);

  useEffect(() => {
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (ms: number) => {
      if (!stopped) timer = setTimeout(poll, ms);
    };
    async function poll() {
      if (document.hidden) return schedule(POLL_INTERVAL_MS); // no requests from a background tab
      try {
        const res = await fetch(`/api/public/share/${encodeURIComponent(token)}`, { cache: "no-store" });
        if (stopped) return;
        if (res.status === 404) return setInvalid(true);
        if (res.ok) {
          setView((await res.json()) as PublicShare);
          setConnection("live");
          return schedule(POLL_INTERVAL_MS);
        }
        setConnection("reconnecting");
        const retryAfter = Number(res.headers.get("retry-after"));
        return schedule(res.status === 429 && retryAfter > 0 ? retryAfter * 1000 : POLL_INTERVAL_MS);
      } catch {
        if (!stopped) setConnection("reconnecting");
        return schedule(POLL_INTERVAL_MS);
      }
    }
    schedule(POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [token]);

  const expiresAt = Date.parse(view.expiresAt);
  if (invalid || now >= expiresAt) return <LinkInvalid />;

  const { trackable, location } = view;
  return (
    // Phones: the map above, the card as a sheet below it (the marker stays in view). Wider: the card floats over the map.
    <main id="main" tabIndex={-1} className="focus:outline-none flex h-dvh w-full flex-col overflow-hidden bg-slate-100 sm:relative sm:block">
      <div className="relative min-h-0 flex-1 sm:absolute sm:inset-0">
        <ShareMap config={mapConfig} location={location} />
      </div>

      <section
        aria-label="Shared location"
        className="relative z-[1000] rounded-t-2xl bg-white p-5 shadow-[0_-8px_24px_rgb(15_23_42/0.08)] ring-1 ring-slate-900/5 sm:absolute sm:left-4 sm:top-4 sm:w-80 sm:rounded-2xl sm:bg-white/95 sm:shadow-xl sm:shadow-slate-900/10 sm:backdrop-blur"
      >
        <div className="flex items-center justify-between gap-3">
          <span className="text-xs font-semibold uppercase tracking-wider text-slate-500">Live location</span>
          <ConnectionBadge connection={connection} />
        </div>

        <h1 className="mt-2 truncate text-xl font-semibold text-slate-900" data-testid="trackable-name">
          {trackable.name}
        </h1>
        <p className="mt-1">
          <span className="rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{trackable.type}</span>
        </p>

        {location ? (
          <dl className="mt-4 space-y-2 border-t border-slate-100 pt-4 text-sm">
            <Row label="Updated">
              <span data-testid="last-updated">{ago(Date.parse(location.timestamp), now)}</span>
            </Row>
            <Row label="Position">
              <span className="font-mono text-xs" data-testid="coordinates">
                {coordinates(location.latitude, location.longitude)}
              </span>
            </Row>
            {location.accuracy !== null && <Row label="Accuracy">± {formatMetres(location.accuracy)}</Row>}
            {location.speed !== null && <Row label="Speed">{Math.round(location.speed * 3.6)} km/h</Row>}
            {location.battery !== null && <Row label="Battery">{Math.round(location.battery)}%</Row>}
          </dl>
        ) : (
          <div className="mt-4 rounded-xl bg-slate-50 p-4 text-sm text-slate-600" data-testid="no-location">
            <p className="font-medium text-slate-800">No location yet</p>
            <p className="mt-1">This page updates by itself as soon as {trackable.name} reports its position.</p>
          </div>
        )}

        <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-3 text-xs text-slate-500">
          <span data-testid="expires">Link expires {until(expiresAt, now)}</span>
          <span className="inline-flex items-center gap-1 text-slate-500">
            <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" aria-hidden="true">
              <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 2" />
              <circle cx="12" cy="12" r="3.5" fill="currentColor" />
            </svg>
            Fenceline
          </span>
        </div>
      </section>
    </main>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function ConnectionBadge({ connection }: { connection: Connection }) {
  const live = connection === "live";
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ${live ? "bg-emerald-50 text-emerald-700" : "bg-amber-50 text-amber-700"}`}
    >
      <span className="relative flex h-2 w-2">
        {live && <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-emerald-400 opacity-75" />}
        <span className={`relative inline-flex h-2 w-2 rounded-full ${live ? "bg-emerald-500" : "bg-amber-500"}`} />
      </span>
      {live ? "Live" : "Reconnecting…"}
    </span>
  );
}

const formatMetres = (m: number) => (m >= 1000 ? `${(m / 1000).toFixed(1)} km` : `${Math.round(m)} m`);
