"use client";
// A fieldset of checkboxes over [value, label] options: the rule form's pickers.
export function CheckGroup({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  hint?: string;
  options: Array<readonly [string, string]>;
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map(([v, label]) => (
          <label key={v} className="flex items-center gap-2 rounded-md p-2 text-sm ring-1 ring-slate-200 has-[:checked]:bg-indigo-50/50 has-[:checked]:ring-indigo-300">
            <input
              type="checkbox"
              className="h-4 w-4 accent-indigo-600"
              checked={value.includes(v)}
              onChange={(e) => onChange(e.target.checked ? [...value, v] : value.filter((x) => x !== v))}
            />
            <span className="min-w-0 truncate">{label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
