import { eventLabel } from "@/lib/events/registry";
import type { Event } from "@/lib/events/schemas";

// How the dashboard words a recorded event: the events page, a trackable's timeline and a geofence's activity.

export type EventBadgeColor = "green" | "gray" | "blue" | "yellow" | "red";

const REASONS: Record<string, string> = {
  geofence_deleted: "the geofence was deleted",
  unassigned: "it was unassigned from the geofence",
  trackable_deleted: "the trackable was deleted",
  geofence_changed: "the geofence was reshaped",
};

export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toLocaleString("en", { maximumFractionDigits: 1 })} h`;
}

/** device.status_changed: "Came online" (with what it was before) or "Went offline", from the recorded change. */
function describeStatus(status: Event["status"] | undefined): { label: string; color: EventBadgeColor; detail: string } {
  if (!status) return { label: "Status", color: "gray", detail: "came online or went offline" };
  if (status.current === "online") return { label: "Came online", color: "green", detail: `(was ${status.previous})` };
  return { label: "Went offline", color: "red", detail: status.previous === "online" ? "" : `(was ${status.previous})` };
}

/** A badge label, its colour and a detail line naming the geofence (from `names`) and why it happened. */
export function describeEvent(e: Event, names: ReadonlyMap<string, string>): { label: string; color: EventBadgeColor; detail: string } {
  const fence = e.geofenceId ? (names.get(e.geofenceId) ?? "a deleted geofence") : "";
  const why = e.reason && REASONS[e.reason] ? ` (${REASONS[e.reason]})` : "";
  switch (e.type) {
    case "geofence.entry":
      return { label: "Entered", color: "green", detail: `${fence}${why}` };
    case "geofence.exit":
      return { label: "Left", color: "gray", detail: `${fence}${why}${e.durationSeconds != null ? ` after ${duration(e.durationSeconds)}` : ""}` };
    case "geofence.dwell":
      return { label: "Dwelling", color: "blue", detail: `${fence}, inside for ${duration(e.durationSeconds ?? 0)}` };
    case "battery.low":
      return { label: "Battery low", color: "yellow", detail: "" };
    case "device.status_changed":
      return describeStatus(e.status);
    default:
      // A type without wording of its own here: its registry label.
      return { label: eventLabel(e.type), color: "gray", detail: "" };
  }
}

/** As describeEvent, on a geofence's own activity list (the geofence goes without saying; the trackable is linked). */
export function describeFenceEvent(e: Event): { label: string; color: EventBadgeColor; detail: string } {
  const why = e.reason && REASONS[e.reason] ? ` because ${REASONS[e.reason]}` : "";
  switch (e.type) {
    case "geofence.entry":
      return { label: "Entered", color: "green", detail: why };
    case "geofence.exit":
      return { label: "Left", color: "gray", detail: `${e.durationSeconds != null ? ` after ${duration(e.durationSeconds)}` : ""}${why}` };
    case "geofence.dwell":
      return { label: "Dwelling", color: "blue", detail: `, inside for ${duration(e.durationSeconds ?? 0)}` };
    default: {
      const d = describeEvent(e, new Map());
      return { ...d, detail: d.detail ? ` ${d.detail}` : "" };
    }
  }
}
