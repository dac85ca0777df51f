// Status and battery indicators shared by the trackables list and detail pages (no client code).
import { cx, Time } from "@/components/ui";
import type { MotionState } from "@/lib/motion/dashboard";
import type { DeviceStatus } from "@/lib/trackables/status";

const STATUS = {
  online: { label: "Online", dot: "bg-emerald-500", text: "text-emerald-700" },
  offline: { label: "Offline", dot: "bg-slate-400", text: "text-slate-600" },
  never: { label: "No data yet", dot: "bg-slate-300 ring-1 ring-slate-400 ring-inset bg-transparent", text: "text-slate-500" },
} as const;

export function StatusIndicator({ status, title }: { status: DeviceStatus; title?: string }) {
  const s = STATUS[status];
  return (
    <span className={cx("inline-flex items-center gap-1.5 text-sm font-medium whitespace-nowrap", s.text)} title={title} data-status={status}>
      <span aria-hidden className={cx("inline-block size-2 rounded-full", s.dot)} />
      {s.label}
    </span>
  );
}

/** A battery gauge with its percentage; below the low threshold it turns red and says "low". */
export function BatteryIndicator({ level, threshold }: { level: number | null | undefined; threshold: number }) {
  if (level === null || level === undefined) return <span className="text-sm text-slate-500">—</span>;
  const low = level < threshold;
  const pct = Math.max(0, Math.min(100, level));
  return (
    <span
      className={cx("inline-flex items-center gap-1.5 text-sm whitespace-nowrap tabular-nums", low ? "font-semibold text-red-700" : "text-slate-700")}
      title={low ? `Below the low-battery threshold of ${threshold}%` : undefined}
      data-battery-low={low ? "true" : "false"}
    >
      <span aria-hidden className={cx("relative inline-flex h-2.5 w-5 rounded-[3px] ring-1", low ? "ring-red-500" : "ring-slate-400")}>
        <span className={cx("m-px rounded-[2px]", low ? "bg-red-500" : pct < 50 ? "bg-amber-400" : "bg-emerald-500")} style={{ width: `${Math.max(8, pct)}%` }} />
        <span className={cx("absolute top-1/2 -right-[3px] h-1 w-[2px] -translate-y-1/2 rounded-r-sm", low ? "bg-red-500" : "bg-slate-400")} />
      </span>
      {Math.round(level)}%{low ? <span className="rounded bg-red-50 px-1 text-xs font-medium text-red-700 ring-1 ring-red-200 ring-inset">Low</span> : null}
    </span>
  );
}

/** "Moving since 7:05 AM" from the trackable's open trip, "Stopped since 6:40 AM" from its last stop or trip's end. */
export function MotionSince({ motion }: { motion: MotionState | undefined }) {
  if (!motion) return null;
  return (
    <span className="block text-xs whitespace-nowrap text-slate-600" data-testid="motion-since" data-state={motion.state}>
      {motion.state === "moving" ? "Moving" : "Stopped"} since <Time value={motion.since} clock />
    </span>
  );
}
