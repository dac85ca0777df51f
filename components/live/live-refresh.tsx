"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { LiveScope } from "@/lib/dashboard/live";

/** How often a visible page asks whether what it shows has changed. */
export const LIVE_POLL_MS = 2000;
const MAX_BACKOFF_MS = 30_000;

type State = "live" | "paused" | "offline";

/**
 * Keeps a server-rendered page current: while the tab is visible it polls /api/internal/live for a fingerprint of
 * what the page shows (computed from the database, so any app server can answer) and calls router.refresh() when it
 * changes. A hidden tab does not poll; becoming visible again re-renders at once. Shows a small "Live" status.
 *
 * `since` is the fingerprint the server component read *before* it read the page's data, so the first poll already
 * compares against what the page shows: a change committed between the render and the first poll (hydration alone
 * takes most of a second) is refreshed, never taken as the baseline. A change between that read and the data's costs
 * one extra refresh, never a missed one.
 */
export function LiveRefresh({ scope, trackableId, since, everyMs = LIVE_POLL_MS }: { scope: LiveScope; trackableId?: string; since: string; everyMs?: number }) {
  const router = useRouter();
  const [state, setState] = useState<State>("live");
  const [refreshes, setRefreshes] = useState(0);
  const last = useRef(since);

  useEffect(() => {
    // A refresh that changed what the page shows brings a new `since`, read before that render's data: the new baseline.
    last.current = since;
    const url = `/api/internal/live?${new URLSearchParams({ scope, ...(trackableId ? { trackableId } : {}) })}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    let inFlight: AbortController | null = null;

    const schedule = (ms: number) => {
      clearTimeout(timer);
      if (!stopped && document.visibilityState === "visible") timer = setTimeout(poll, ms);
    };
    const refresh = () => {
      router.refresh();
      setRefreshes((n) => n + 1);
    };
    async function poll() {
      if (stopped || document.visibilityState !== "visible" || inFlight) return;
      inFlight = new AbortController();
      try {
        const res = await fetch(url, { cache: "no-store", signal: inFlight.signal, headers: { Accept: "application/json" } });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const { fingerprint } = (await res.json()) as { fingerprint: string };
        if (fingerprint !== last.current) refresh();
        last.current = fingerprint;
        failures = 0;
        setState("live");
      } catch (err) {
        if ((err as Error).name === "AbortError") return;
        failures += 1;
        setState("offline");
      } finally {
        inFlight = null;
      }
      // After failures (a 429, a restart) wait longer each time, up to 30 s.
      schedule(failures ? Math.min(MAX_BACKOFF_MS, everyMs * 2 ** failures) : everyMs);
    }
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        setState("live");
        refresh(); // what changed while hidden shows at once
        void poll();
      } else {
        clearTimeout(timer);
        inFlight?.abort();
        setState("paused");
      }
    };

    document.addEventListener("visibilitychange", onVisibility);
    if (document.visibilityState === "visible") void poll();
    else setState("paused");
    return () => {
      stopped = true;
      clearTimeout(timer);
      inFlight?.abort();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [scope, trackableId, since, everyMs, router]);

  const label = state === "live" ? "Live" : state === "paused" ? "Paused" : "Reconnecting…";
  const title =
    state === "live"
      ? "This page updates by itself within a few seconds of a change"
      : state === "paused"
        ? "Updates are paused while this tab is hidden"
        : "Cannot reach the server; retrying";
  return (
    <span
      role="status"
      title={title}
      data-testid="live-indicator"
      data-state={state}
      data-refreshes={refreshes}
      className={
        "inline-flex shrink-0 self-center items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ring-1 " +
        (state === "live"
          ? "bg-emerald-50 text-emerald-800 ring-emerald-600/20"
          : state === "paused"
            ? "bg-slate-100 text-slate-700 ring-slate-500/20"
            : "bg-amber-50 text-amber-800 ring-amber-600/20")
      }
    >
      <span
        aria-hidden
        className={
          "h-2 w-2 rounded-full " + (state === "live" ? "bg-emerald-500 motion-safe:animate-pulse" : state === "paused" ? "bg-slate-400" : "bg-amber-500")
        }
      />
      {label}
      <span className="sr-only">: {title}</span>
    </span>
  );
}
