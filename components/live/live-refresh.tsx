"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { coalescer, type Coalescer } from "@/lib/dashboard/coalesce";
import type { LiveScope } from "@/lib/stream/dashboard";

const FIRST_RETRY_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A refresh that never reports its end (a navigation away, say) stops holding the next one after this long. */
const REFRESH_STUCK_MS = 10_000;
/** Re-renders of a busy account's page start at least this far apart (each is a full server render of the page). */
const REFRESH_GAP_MS = 250;

type State = "live" | "paused" | "offline";

/**
 * Keeps a server-rendered page current: while the tab is visible it listens to /api/internal/stream (the account's
 * live frames, through the session) and calls router.refresh() when a frame says something the page shows changed —
 * one refresh at a time, and one more after it when frames came meanwhile. A hidden tab closes the stream; becoming
 * visible opens it again. Two re-renders start at least REFRESH_GAP_MS apart. Shows a small "Live" status.
 *
 * Each time the stream says it listens (`ready`), the page refreshes once: a change committed while the page was
 * rendered and hydrated, or while the stream was closed or down, is shown, never missed. A refresh re-renders the page
 * in place: state the viewer made (a map's view, a playback, a typed field) survives it unless a key or value derived
 * from the server's clock changes under it, so key such state by what the URL says (as `rangeKey` does).
 */
export function LiveRefresh({ scope, trackableId }: { scope: LiveScope; trackableId?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [state, setState] = useState<State>("live");
  const [connected, setConnected] = useState(false);
  const [refreshes, setRefreshes] = useState(0);
  const refresher = useRef<Coalescer | null>(null);

  useEffect(() => {
    let stuck: ReturnType<typeof setTimeout> | undefined;
    const c = coalescer(() => {
      setRefreshes((n) => n + 1);
      startTransition(() => router.refresh());
      clearTimeout(stuck);
      stuck = setTimeout(() => c.settled(), REFRESH_STUCK_MS);
    }, { minGapMs: REFRESH_GAP_MS });
    refresher.current = c;
    return () => {
      clearTimeout(stuck);
      c.stop();
      refresher.current = null;
    };
  }, [router]);

  // The transition that ran router.refresh() is over: the page shows what the server read.
  useEffect(() => {
    if (!pending) refresher.current?.settled();
  }, [pending]);

  useEffect(() => {
    const url = `/api/internal/stream?${new URLSearchParams({ scope, ...(trackableId ? { trackableId } : {}) })}`;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    const refresh = () => refresher.current?.request();

    const close = () => {
      clearTimeout(retry);
      source?.close();
      source = null;
      setConnected(false);
    };
    const open = () => {
      if (stopped || source || document.visibilityState !== "visible") return;
      const es = new EventSource(url);
      source = es;
      es.addEventListener("ready", () => {
        failures = 0;
        setState("live");
        setConnected(true);
        refresh();
      });
      es.addEventListener("change", refresh);
      // Reopened by hand, not by EventSource: it gives up for good on a 401 or 429, and its own retry has no backoff.
      es.onerror = () => {
        close();
        failures += 1;
        setState("offline");
        retry = setTimeout(open, Math.min(MAX_BACKOFF_MS, FIRST_RETRY_MS * 2 ** (failures - 1)));
      };
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        setState("live");
        open();
      } else {
        close();
        setState("paused");
      }
    };

    document.addEventListener("visibilitychange", onVisibility);
    if (document.visibilityState === "visible") open();
    else setState("paused");
    return () => {
      stopped = true;
      close();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [scope, trackableId]);

  const label = state === "live" ? "Live" : state === "paused" ? "Paused" : "Reconnecting…";
  const title =
    state === "live"
      ? "This page updates by itself within a second of a change"
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
      data-refreshing={pending}
      data-connected={connected}
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
