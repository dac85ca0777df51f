"use client";
import { useState } from "react";
import { useVisibleRefresh } from "@/components/live/visible-refresh";

/**
 * Re-renders the server page every few seconds while it shows a pending delivery, and stops by itself once nothing
 * is pending (the next render passes active=false). Says so while it is on.
 */
export function AutoRefresh({ active, everyMs = 3000 }: { active: boolean; everyMs?: number }) {
  const [ticks, setTicks] = useState(0);
  useVisibleRefresh(everyMs, active, () => setTicks((t) => t + 1));
  if (!active) return null;
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full bg-amber-50 px-2.5 py-1 text-xs font-medium text-amber-800 ring-1 ring-amber-600/20"
      role="status"
      data-testid="auto-refresh"
      data-ticks={ticks}
    >
      <span className="h-2 w-2 animate-pulse rounded-full bg-amber-500" aria-hidden />
      Refreshing…
    </span>
  );
}
