"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * Re-renders the server page every `everyMs` while `active` and the tab is visible (a hidden tab does not refresh);
 * `onRefresh` is told of each refresh. For pages whose data has no live stream of its own.
 */
export function useVisibleRefresh(everyMs: number, active = true, onRefresh?: () => void) {
  const router = useRouter();
  const told = useRef(onRefresh);
  useEffect(() => {
    told.current = onRefresh;
  });
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "visible") return;
      router.refresh();
      told.current?.();
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [active, everyMs, router]);
}
