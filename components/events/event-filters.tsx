import Form from "next/form";
import { Button, ButtonLink, cx, inputClass } from "@/components/ui";
import { FilterSelect } from "@/components/ui/list-controls";
import { LocalDateTimeInput } from "@/components/ui/local-datetime-input";
import { recordedTypeOptions, type RecordedEventType } from "@/lib/events/registry";

export interface EventFilterValues {
  trackableId?: string;
  geofenceId?: string;
  type?: string;
  from?: string;
  to?: string;
}

// The registry's recorded types, each with its label.
const TYPE_OPTIONS = recordedTypeOptions();
export const EVENT_TYPE_LABELS = Object.fromEntries(TYPE_OPTIONS) as Record<RecordedEventType, string>;

// The events page's filters: a plain GET form, so every view is a shareable URL. The time bounds are typed in the
// viewer's zone and sent as UTC instants (LocalDateTimeInput).
export function EventFilters({
  values,
  trackables,
  geofences,
}: {
  values: EventFilterValues;
  trackables: { id: string; name: string }[];
  geofences: { id: string; name: string }[];
}) {
  const filtered = Object.values(values).some(Boolean);
  return (
    <Form action="/events" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 lg:items-end" aria-label="Filter events">
      <FilterSelect id="events-trackableId" className="min-w-0" name="trackableId" label="Trackable" value={values.trackableId} options={trackables.map((t) => [t.id, t.name])} />
      <FilterSelect id="events-geofenceId" className="min-w-0" name="geofenceId" label="Geofence" value={values.geofenceId} options={geofences.map((g) => [g.id, g.name])} />
      <FilterSelect id="events-type" className="min-w-0" name="type" label="Type" value={values.type} options={TYPE_OPTIONS} />
      <div className="min-w-0">
        <label htmlFor="events-from" className="block text-xs font-medium text-slate-700">
          From
        </label>
        <LocalDateTimeInput id="events-from" name="from" value={values.from ?? ""} className={cx(inputClass, "mt-1")} />
      </div>
      <div className="min-w-0">
        <label htmlFor="events-to" className="block text-xs font-medium text-slate-700">
          To
        </label>
        <LocalDateTimeInput id="events-to" name="to" value={values.to ?? ""} className={cx(inputClass, "mt-1")} />
      </div>
      <div className="flex items-center gap-2">
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        {filtered ? (
          <ButtonLink href="/events" variant="ghost">
            Clear
          </ButtonLink>
        ) : null}
      </div>
    </Form>
  );
}
