import type { NotificationSchedule } from "@/lib/db/schema/notification-rules";

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The weekday and minutes since local midnight of an instant in a zone: wall-clock time, so DST is the zone's. */
export function localTime(at: Date, timeZone: string): { day: Weekday; minutes: number; hhmm: string } {
  const parts = formatter(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  const day = get("weekday").toLowerCase().slice(0, 3) as Weekday;
  const hour = Number(get("hour")) % 24;
  const minute = Number(get("minute"));
  return { day, minutes: hour * 60 + minute, hhmm: `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}` };
}

/** "HH:MM" as minutes since midnight. */
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const previousDay = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]!;

/**
 * Whether an instant falls inside a weekly schedule, read on the wall clock of its zone. The window starts at `from`
 * (inclusive) on each listed day and ends at `to` (exclusive); `from` > `to` spans midnight, so the part after
 * midnight belongs to the day it started on; `from` = `to` is 24 hours from `from` (00:00–00:00: the whole day). No
 * schedule: always.
 */
export function inSchedule(schedule: NotificationSchedule | null, at: Date): boolean {
  if (!schedule) return true;
  const { day, minutes } = localTime(at, schedule.timeZone);
  const from = minutesOf(schedule.from);
  const to = minutesOf(schedule.to);
  const days = schedule.days as readonly Weekday[];
  if (from < to) return days.includes(day) && minutes >= from && minutes < to;
  return (days.includes(day) && minutes >= from) || (days.includes(previousDay(day)) && minutes < to);
}
