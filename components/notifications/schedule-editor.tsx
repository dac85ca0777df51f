"use client";
// A rule's weekly schedule: always, or days with a from–to window (from later than to spans midnight) in a time zone.
import { Field, inputClass } from "@/components/ui";
import type { NotificationSchedule } from "@/lib/db/schema/notification-rules";
import { CheckGroup } from "./check-group";

const DAYS: Array<readonly [string, string]> = [["mon", "Monday"], ["tue", "Tuesday"], ["wed", "Wednesday"], ["thu", "Thursday"], ["fri", "Friday"], ["sat", "Saturday"], ["sun", "Sunday"]];

export function ScheduleEditor({
  id,
  value,
  onChange,
  errors,
}: {
  id: string;
  value: NotificationSchedule | null;
  onChange: (next: NotificationSchedule | null) => void;
  errors: Record<string, string>;
}) {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return (
    <div className="space-y-3">
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="h-4 w-4 accent-indigo-600"
          checked={value !== null}
          onChange={(e) =>
            onChange(e.target.checked ? { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00" } : null)
          }
        />
        Only at certain times
      </label>
      {value ? (
        <div className="space-y-3 rounded-md p-3 ring-1 ring-slate-200">
          <Field id={`${id}-zone`} label="Time zone" hint="Also the zone of the time in messages." error={errors["schedule.timeZone"]}>
            <input id={`${id}-zone`} list={`${id}-zones`} className={inputClass} value={value.timeZone} onChange={(e) => onChange({ ...value, timeZone: e.target.value })} />
          </Field>
          <datalist id={`${id}-zones`}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <CheckGroup legend="Days" options={DAYS} value={value.days} onChange={(days) => onChange({ ...value, days: days as NotificationSchedule["days"] })} error={errors["schedule.days"]} />
          <div className="grid grid-cols-2 gap-3">
            <Field id={`${id}-from`} label="From" error={errors["schedule.from"]}>
              <input id={`${id}-from`} type="time" className={inputClass} value={value.from} onChange={(e) => onChange({ ...value, from: e.target.value })} />
            </Field>
            <Field id={`${id}-to`} label="To" hint="Earlier than From: through midnight." error={errors["schedule.to"]}>
              <input id={`${id}-to`} type="time" className={inputClass} value={value.to} onChange={(e) => onChange({ ...value, to: e.target.value })} />
            </Field>
          </div>
        </div>
      ) : null}
    </div>
  );
}
