import { ButtonLink, cx, inputClass } from "./index";

/**
 * One filter of a list page's GET form: a labelled select whose empty choice is "All". `id` is the select's id (the
 * label points at it); `className` sizes the wrapper in the form's layout.
 */
export function FilterSelect({
  id,
  name,
  label,
  value,
  options,
  className,
}: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  options: (readonly [string, string])[];
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className={cx(inputClass, "mt-1")}>
        <option value="">All</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Keyset paging under a newest-first list: "← Newest" once past the first page, "Older →" while there is more. */
export function Pager({ newestHref, olderHref }: { newestHref: string | null; olderHref: string | null }) {
  if (!newestHref && !olderHref) return null;
  return (
    <nav className="mt-4 flex justify-between" aria-label="Pages">
      {newestHref ? (
        <ButtonLink href={newestHref} variant="secondary" size="sm">
          ← Newest
        </ButtonLink>
      ) : (
        <span />
      )}
      {olderHref ? (
        <ButtonLink href={olderHref} variant="secondary" size="sm">
          Older →
        </ButtonLink>
      ) : null}
    </nav>
  );
}
