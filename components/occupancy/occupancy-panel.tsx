import Link from "next/link";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Card, Time } from "@/components/ui";
import type { Geofence } from "@/lib/geofences/schemas";

interface Occupant {
  geofenceId: string;
  trackableId: string;
  name: string;
  enteredAt: string;
}

// The geofences page's "Who is inside now": every geofence with the trackables inside it (occupied ones first) and a
// link to its events. It re-renders with the page when the live stream reports a change.
export function OccupancyPanel({ geofences, occupants, truncated }: { geofences: Geofence[]; occupants: Occupant[]; truncated: boolean }) {
  const inside = new Map<string, Occupant[]>();
  for (const o of occupants) inside.set(o.geofenceId, [...(inside.get(o.geofenceId) ?? []), o]);
  const ordered = [...geofences].sort((a, b) => (inside.get(b.id)?.length ?? 0) - (inside.get(a.id)?.length ?? 0));
  return (
    <Card aria-labelledby="occupancy-heading" className="mt-6 p-4 sm:p-5" data-testid="occupancy-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="occupancy-heading" className="text-base font-semibold text-slate-900">
          Who is inside now
        </h2>
        <LiveRefresh scope="geofences" />
      </div>
      {geofences.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No geofences yet: draw one on the map above, and the trackables inside it show here.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 text-sm">
          {ordered.map((g) => {
            const here = inside.get(g.id) ?? [];
            return (
              <li key={g.id} className="flex flex-col gap-2 py-2.5 sm:flex-row sm:items-start sm:justify-between" data-testid="occupancy-row" data-geofence-id={g.id}>
                <div className="min-w-0 flex-1">
                  <Link href={`/geofences?geofence=${g.id}`} className="font-medium break-words text-slate-900 hover:text-indigo-600">
                    {g.name}
                  </Link>
                  {here.length === 0 ? (
                    <p className="text-slate-500">Nobody inside</p>
                  ) : (
                    <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1" aria-label={`Inside ${g.name}`}>
                      {here.map((o) => (
                        <li key={o.trackableId} data-testid="occupant">
                          <Link href={`/trackables/${o.trackableId}`} className="font-medium break-words text-indigo-700 hover:underline">
                            {o.name}
                          </Link>{" "}
                          <span className="text-slate-500">
                            since <Time value={o.enteredAt} relative />
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
                <Link href={`/events?geofenceId=${g.id}`} className="shrink-0 font-medium text-indigo-700 hover:underline" data-testid="geofence-events-link">
                  Events →
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      {truncated ? <p className="mt-2 text-xs text-slate-500">Showing the latest arrivals only; the API lists every occupant.</p> : null}
    </Card>
  );
}
