"use client";
import { lazy, Suspense, type ComponentType } from "react";
import { cx } from "@/components/ui";
import { useHydrated } from "@/components/ui/time";

/** A map's box when its caller gives it no size (BaseMap's default too). */
export const MAP_BOX = "h-96 w-full";

/**
 * A map component loaded in the browser only (Leaflet touches `window` at import time), as next/dynamic with
 * `ssr: false` does, but with a placeholder of the map's own size: the caller's className, which next/dynamic's
 * placeholder cannot see. The server and the first render draw the placeholder in the map's box, so nothing below it
 * moves when the map arrives.
 */
export function clientOnlyMap<P extends { className?: string }>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Lazy = lazy(load);
  function ClientOnlyMap(props: P) {
    const hydrated = useHydrated();
    const placeholder = <div className={cx(props.className ?? MAP_BOX, "animate-pulse rounded-lg bg-slate-100")} aria-busy="true" />;
    return hydrated ? (
      <Suspense fallback={placeholder}>
        <Lazy {...props} />
      </Suspense>
    ) : (
      placeholder
    );
  }
  return ClientOnlyMap;
}
