// The track's time range: preset links and a custom from/to form, all plain GET navigation (server-rendered,
// shareable URLs). The custom bounds are typed in the viewer's time zone and sent as UTC instants.
import Link from "next/link";
import { buttonClass, cx, inputClass } from "@/components/ui";
import { LocalDateTimeInput } from "@/components/ui/local-datetime-input";
import { DEFAULT_RANGE, RANGE_PRESETS, rangeKey, type TimeRange } from "@/lib/dashboard/time-range";

const DEFAULT_LABEL = RANGE_PRESETS.find((p) => p.id === DEFAULT_RANGE)!.label.toLowerCase();

export function RangePicker({ basePath, range }: { basePath: string; range: TimeRange }) {
  const custom = range.preset === "custom" || !!range.error;
  // A preset's start moves with the clock on every render: only another range puts the bounds back over what was typed.
  const resetKey = rangeKey(range);
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label="Time range" className="flex flex-wrap items-center gap-2">
        <div className="inline-flex rounded-md shadow-sm ring-1 ring-slate-300 ring-inset">
          {RANGE_PRESETS.map((p, i) => (
            <Link
              key={p.id}
              href={`${basePath}?range=${p.id}`}
              aria-current={range.preset === p.id ? "page" : undefined}
              className={cx(
                "px-3 py-1.5 text-sm font-medium focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-indigo-600",
                i === 0 && "rounded-l-md",
                i === RANGE_PRESETS.length - 1 && "rounded-r-md",
                i > 0 && "border-l border-slate-300",
                range.preset === p.id ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50",
              )}
            >
              {p.label}
            </Link>
          ))}
        </div>
      </nav>
      <details open={custom} className="group rounded-md">
        <summary
          className={cx(
            "inline-flex cursor-pointer list-none items-center gap-1 rounded-md px-1 text-sm font-medium select-none focus-visible:outline-2 focus-visible:outline-indigo-600",
            range.preset === "custom" ? "text-indigo-700" : "text-slate-600 hover:text-slate-900",
          )}
        >
          <span aria-hidden className="transition-transform group-open:rotate-90">▸</span> Custom range
        </summary>
        <form method="get" action={basePath} className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-end">
          <input type="hidden" name="range" value="custom" />
          <div>
            <label htmlFor="range-from" className="block text-xs font-medium text-slate-700">
              From
            </label>
            <LocalDateTimeInput
              id="range-from"
              name="from"
              required
              value={range.fromInput}
              resetKey={resetKey}
              className={cx(inputClass, "mt-1")}
              aria-invalid={range.error ? true : undefined}
              aria-describedby={range.error ? "range-error" : undefined}
            />
          </div>
          <div>
            <label htmlFor="range-to" className="block text-xs font-medium text-slate-700">
              To (empty for now)
            </label>
            <LocalDateTimeInput
              id="range-to"
              name="to"
              value={range.preset === "custom" ? range.toInput : ""}
              resetKey={resetKey}
              className={cx(inputClass, "mt-1")}
              aria-invalid={range.error ? true : undefined}
              aria-describedby={range.error ? "range-error" : undefined}
            />
          </div>
          <button type="submit" className={buttonClass("secondary")}>
            Show range
          </button>
        </form>
        {range.error ? (
          <p id="range-error" role="alert" className="mt-2 text-xs text-red-600">
            {range.error} Showing the {DEFAULT_LABEL} instead.
          </p>
        ) : null}
      </details>
    </div>
  );
}
