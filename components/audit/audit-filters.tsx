import Form from "next/form";
import { Button, ButtonLink, cx, inputClass } from "@/components/ui";
import { FilterSelect } from "@/components/ui/list-controls";
import { LocalDateTimeInput } from "@/components/ui/local-datetime-input";
import { actionLabel, objectTypeLabel } from "./labels";

export interface AuditFilterValues {
  actorId?: string;
  action?: string;
  objectType?: string;
  from?: string;
  to?: string;
}

// The audit log page's filters, as the events page's: a plain GET form (every view a shareable URL), the time bounds
// typed in the viewer's zone and sent as UTC instants.
export function AuditFilters({
  values,
  options,
}: {
  values: AuditFilterValues;
  options: { actors: [string, string][]; actions: string[]; objectTypes: string[] };
}) {
  const filtered = Object.values(values).some(Boolean);
  return (
    <Form action="/audit-log" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 lg:items-end" aria-label="Filter the audit log">
      <FilterSelect id="audit-actorId" className="min-w-0" name="actorId" label="Who" value={values.actorId} options={options.actors} />
      <FilterSelect id="audit-action" className="min-w-0" name="action" label="Action" value={values.action} options={options.actions.map((a) => [a, actionLabel(a)])} />
      <FilterSelect
        id="audit-objectType"
        className="min-w-0"
        name="objectType"
        label="Object"
        value={values.objectType}
        options={options.objectTypes.map((t) => [t, objectTypeLabel(t)])}
      />
      <div className="min-w-0">
        <label htmlFor="audit-from" className="block text-xs font-medium text-slate-700">
          From
        </label>
        <LocalDateTimeInput id="audit-from" name="from" value={values.from ?? ""} className={cx(inputClass, "mt-1")} />
      </div>
      <div className="min-w-0">
        <label htmlFor="audit-to" className="block text-xs font-medium text-slate-700">
          To
        </label>
        <LocalDateTimeInput id="audit-to" name="to" value={values.to ?? ""} className={cx(inputClass, "mt-1")} />
      </div>
      <div className="flex items-center gap-2">
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        {filtered ? (
          <ButtonLink href="/audit-log" variant="ghost">
            Clear
          </ButtonLink>
        ) : null}
      </div>
    </Form>
  );
}
