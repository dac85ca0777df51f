"use client";
import { cx } from "@/components/ui";
import type { TrackableSummary } from "@/lib/trackables/summaries";

export function AssignedTrackables({
  trackables,
  all,
  ids,
  error,
  onChange,
}: {
  trackables: TrackableSummary[];
  all: boolean;
  ids: string[];
  error: string | null;
  onChange: (all: boolean, ids: string[]) => void;
}) {
  const toggle = (id: string, on: boolean) => onChange(false, on ? [...ids, id] : ids.filter((x) => x !== id));
  return (
    <fieldset aria-describedby={error ? "gf-trackables-error" : undefined}>
      <legend className="text-sm font-medium text-slate-800">Applies to</legend>
      <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" className="h-4 w-4 accent-indigo-600" checked={all} onChange={(e) => onChange(e.target.checked, ids)} />
        All trackables, including ones added later
      </label>
      {trackables.length === 0 ? (
        <p className="mt-2 text-xs text-slate-500">No trackables yet: create them through the API or on the Trackables page.</p>
      ) : (
        <ul className={cx("mt-2 max-h-44 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2", all && "opacity-60")}>
          {trackables.map((t) => (
            <li key={t.id}>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-indigo-600"
                  disabled={all}
                  checked={all || ids.includes(t.id)}
                  onChange={(e) => toggle(t.id, e.target.checked)}
                />
                <span className="truncate">{t.name}</span>
                <span className="text-xs text-slate-400">{t.type}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id="gf-trackables-error" role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
