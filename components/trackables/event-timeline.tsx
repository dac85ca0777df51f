import Link from "next/link";
import { describeEvent } from "@/components/events/describe-event";
import { Badge, Card, Time } from "@/components/ui";
import type { Event } from "@/lib/events/schemas";
import type { TrackableGeofence } from "@/lib/geofences/schemas";

// The trackable page's "Geofences" card: the fences it is inside now and its recorded events, newest first.

export function EventTimeline({
  inside,
  events,
  geofenceNames,
  trackableId,
}: {
  inside: TrackableGeofence[];
  events: Event[];
  geofenceNames: ReadonlyMap<string, string>;
  /** Links "All events" to the events page filtered to this trackable. */
  trackableId?: string;
  /** Unused: relative times keep their own clock. */
  now?: Date;
}) {
  return (
    <Card aria-labelledby="geofences-heading" className="p-4 sm:p-5">
      <h2 id="geofences-heading" className="text-base font-semibold text-slate-900">
        Geofences
      </h2>
      <p className="mt-3 text-sm font-medium text-slate-700">Inside now</p>
      {inside.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="inside-none">
          Not inside any geofence.
        </p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm" data-testid="inside-list">
          {inside.map((g) => (
            <li key={g.geofenceId} className="flex flex-wrap justify-between gap-x-3">
              <Link href="/geofences" className="font-medium text-indigo-700 hover:underline">
                {g.name}
              </Link>
              <span className="text-slate-500">
                since <Time value={g.enteredAt} relative />
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="text-sm font-medium text-slate-700">Events</p>
        {trackableId ? (
          <Link href={`/events?trackableId=${trackableId}`} className="text-sm font-medium text-indigo-700 hover:underline" data-testid="all-events-link">
            All events →
          </Link>
        ) : null}
      </div>
      {events.length === 0 ? (
        <p className="text-sm text-slate-500">No events yet: entries, exits, dwells, low battery and status changes appear here.</p>
      ) : (
        <ol className="mt-2 space-y-2 border-l border-slate-200 pl-4" aria-label="Event timeline">
          {events.map((e) => {
            const d = describeEvent(e, geofenceNames);
            return (
              <li key={e.id} className="relative text-sm" data-testid="timeline-event" data-type={e.type}>
                <span className="absolute top-1.5 -left-[21px] h-2 w-2 rounded-full bg-slate-400" aria-hidden />
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <Badge color={d.color}>{d.label}</Badge>
                  <span className="min-w-0 break-words text-slate-800">{d.detail}</span>
                </div>
                <Time className="block text-xs text-slate-500" value={e.occurredAt} seconds />
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
