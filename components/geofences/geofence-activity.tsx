"use client";
// The selected geofence's activity: the trackables inside it now (since when) and its recent events, each linked to
// its trackable. Loaded through a server action whenever the selection changes or the fence is saved, and again every
// 5 s while the tab is visible.
import Link from "next/link";
import { useEffect, useState } from "react";
import { geofenceActivityAction } from "@/lib/geofences/actions";
import { describeFenceEvent } from "@/components/events/describe-event";
import { Alert, Badge, Card, Time } from "@/components/ui";
import type { Event } from "@/lib/events/schemas";
import type { Occupant } from "@/lib/geofences/schemas";

interface Activity {
  occupants: Occupant[];
  moreOccupants: boolean;
  events: Event[];
  trackableNames: Record<string, string>;
}

// Within 5 s of a change, as the rest of the dashboard; never in a hidden tab.
const REFRESH_MS = 5_000;

export function GeofenceActivity({ geofenceId, version }: { geofenceId: string; version: string }) {
  const [activity, setActivity] = useState<Activity | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      const result = await geofenceActivityAction(geofenceId);
      if (cancelled) return;
      if (result.ok) {
        setActivity(result.data);
        setError(null);
      } else setError(result.error);
    };
    setActivity(null);
    void load();
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void load();
    }, REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") void load();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [geofenceId, version]);

  const name = (id: string | null) => (id ? (activity?.trackableNames[id] ?? "A deleted trackable") : "");

  return (
    <Card className="mt-4 p-4 sm:p-5" aria-labelledby="gf-activity-title" data-testid="geofence-activity">
      <h2 id="gf-activity-title" className="text-base font-semibold text-slate-900">
        Activity
      </h2>
      {error ? <Alert>{error}</Alert> : null}
      <h3 className="mt-3 text-sm font-medium text-slate-700">Inside now</h3>
      {activity === null ? (
        <p className="text-sm text-slate-500" aria-busy="true">
          Loading…
        </p>
      ) : activity.occupants.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="occupants-none">
          Nobody is inside this geofence.
        </p>
      ) : (
        <ul className="mt-1 space-y-1.5 text-sm" data-testid="occupants">
          {activity.occupants.map((o) => (
            <li key={o.trackableId} className="flex flex-wrap items-baseline justify-between gap-x-3" data-testid="fence-occupant">
              <Link href={`/trackables/${o.trackableId}`} className="min-w-0 truncate font-medium text-indigo-700 hover:underline">
                {o.name}
              </Link>
              <span className="text-xs text-slate-500">
                since <Time value={o.enteredAt} relative />
              </span>
            </li>
          ))}
          {activity.moreOccupants ? <li className="text-xs text-slate-500">…and more (the latest 50 arrivals are shown).</li> : null}
        </ul>
      )}
      <h3 className="mt-4 text-sm font-medium text-slate-700">Recent events</h3>
      {activity === null ? null : activity.events.length === 0 ? (
        <p className="text-sm text-slate-500">No events yet: entries, exits and dwells of this geofence appear here.</p>
      ) : (
        <ol className="mt-2 space-y-2 border-l border-slate-200 pl-4" aria-label="Recent events of this geofence">
          {activity.events.map((e) => {
            const d = describeFenceEvent(e);
            return (
              <li key={e.id} className="relative text-sm" data-testid="geofence-event" data-type={e.type}>
                <span className="absolute top-1.5 -left-[21px] h-2 w-2 rounded-full bg-slate-400" aria-hidden />
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <Badge color={d.color}>{d.label}</Badge>
                  <span className="min-w-0 break-words text-slate-800">
                    {e.trackableId ? (
                      <Link href={`/trackables/${e.trackableId}`} className="font-medium text-indigo-700 hover:underline">
                        {name(e.trackableId)}
                      </Link>
                    ) : null}
                    {d.detail}
                  </span>
                </div>
                <Time value={e.occurredAt} className="block text-xs text-slate-500" />
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
