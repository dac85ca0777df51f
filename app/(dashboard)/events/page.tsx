import type { Metadata } from "next";
import Link from "next/link";
import { CollapsibleFilters } from "@/components/events/collapsible-filters";
import { EventFilters, EVENT_TYPE_LABELS } from "@/components/events/event-filters";
import { LiveRefresh } from "@/components/live/live-refresh";
import { describeEvent } from "@/components/events/describe-event";
import { Alert, Badge, Card, EmptyState, PageHeader, Time } from "@/components/ui";
import { Pager } from "@/components/ui/list-controls";
import { requireSession } from "@/lib/auth/session";
import { listEvents } from "@/lib/events/events";
import { EventListQuery } from "@/lib/events/schemas";
import { listAllGeofences } from "@/lib/geofences/geofences";
import { ApiError } from "@/lib/http/errors";
import { listTrackableSummaries } from "@/lib/trackables/summaries";

export const metadata: Metadata = { title: "Events" };

const PAGE_SIZE = 25;
type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : undefined);

/** /events?trackableId=&geofenceId=&type=&from=&to=&cursor= — the event log (GET /api/v1/events), filters in the URL. */
export default async function EventsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { ctx } = await requireSession({ permission: "workspace.read" });
  const sp = await searchParams;
  const filters = { trackableId: one(sp.trackableId), geofenceId: one(sp.geofenceId), type: one(sp.type), from: one(sp.from), to: one(sp.to) };
  const cursor = one(sp.cursor);
  const parsed = EventListQuery.safeParse({ ...filters, cursor, limit: PAGE_SIZE });
  let problem: string | null = parsed.success
    ? null
    : `Some filters in the address were not understood and were ignored: ${parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; ")}.`;
  if (parsed.success && parsed.data.from && parsed.data.to && parsed.data.from > parsed.data.to) problem = "The start of the time range is after its end: nothing can match.";
  const query = parsed.success ? parsed.data : { limit: PAGE_SIZE };
  const [page, trackables, geofences] = await Promise.all([
    listEvents({ ctx, query }).catch(async (err) => {
      if (!(err instanceof ApiError) || err.code !== "invalid_request") throw err;
      problem = "That page link is no longer valid: showing the newest events.";
      return listEvents({ ctx, query: { ...query, cursor: undefined } });
    }),
    listTrackableSummaries({ ctx }),
    listAllGeofences({ ctx }),
  ]);
  const trackableNames = new Map(trackables.map((t) => [t.id, t.name]));
  const geofenceNames = new Map(geofences.map((g) => [g.id, g.name]));
  const keep = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `/events?${s}` : "/events";
  };
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Events"
        description="Everything that happened to your trackables: geofence entries, exits and dwells, low battery, coming online and going offline."
        actions={!cursor ? <LiveRefresh scope="events" /> : undefined}
      />
      <Card className="mb-4 p-4">
        <CollapsibleFilters active={Object.values(filters).filter(Boolean).length}>
          <EventFilters values={filters} trackables={trackables} geofences={geofences} />
        </CollapsibleFilters>
      </Card>
      {problem ? (
        <div className="mb-4">
          <Alert tone="info">{problem}</Alert>
        </div>
      ) : null}

      {page.data.length === 0 ? (
        <EmptyState title={filtered ? "No events match these filters" : "No events yet"}>
          {filtered ? (
            "Try another trackable, geofence, type or time range, or clear the filters."
          ) : (
            <>
              Events are recorded when a trackable enters, leaves or dwells in a{" "}
              <Link href="/geofences" className="font-medium text-indigo-700 hover:underline">
                geofence
              </Link>
              , when its battery runs low, and when it comes online or goes offline. The API lists them at{" "}
              <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">GET /api/v1/events</code>.
            </>
          )}
        </EmptyState>
      ) : (
        <Card className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Events">
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">When</th>
                <th scope="col" className="px-4 py-3">Event</th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">Trackable</th>
                <th scope="col" className="hidden px-4 py-3 md:table-cell">Where</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.data.map((e) => {
                const d = describeEvent(e, geofenceNames);
                const trackableName = trackableNames.get(e.trackableId);
                const trackable = trackableName ? (
                  <Link href={`/trackables/${e.trackableId}`} className="font-medium break-words text-slate-900 hover:text-indigo-600">
                    {trackableName}
                  </Link>
                ) : (
                  <span className="text-slate-500">A deleted trackable</span>
                );
                return (
                  <tr key={e.id} data-testid="event-row" data-event-id={e.id} data-type={e.type} className="align-top hover:bg-slate-50/60">
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                      <Time value={e.occurredAt} relative />
                      <Time className="block text-xs text-slate-500" value={e.occurredAt} seconds data-testid="event-time" />
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                        <Badge color={d.color} title={EVENT_TYPE_LABELS[e.type]}>
                          {d.label}
                        </Badge>
                        {e.geofenceId && geofenceNames.has(e.geofenceId) ? (
                          <Link href={`/geofences?geofence=${e.geofenceId}`} className="min-w-0 break-words text-slate-800 hover:text-indigo-600">
                            {d.detail}
                          </Link>
                        ) : (
                          <span className="min-w-0 break-words text-slate-800">{d.detail}</span>
                        )}
                        {e.confidence === "low" ? (
                          <span className="text-xs text-slate-500" title="The point's accuracy circle crossed the boundary">
                            (low confidence)
                          </span>
                        ) : null}
                      </div>
                      <div className="mt-1 text-xs text-slate-500 sm:hidden">{trackable}</div>
                    </td>
                    <td className="hidden px-4 py-3 sm:table-cell">{trackable}</td>
                    <td className="hidden px-4 py-3 font-mono text-xs whitespace-nowrap text-slate-600 md:table-cell">
                      {e.location ? `${e.location.latitude.toFixed(5)}, ${e.location.longitude.toFixed(5)}` : "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
      )}
      <Pager newestHref={cursor ? keep({}) : null} olderHref={page.nextCursor ? keep({ cursor: page.nextCursor }) : null} />
    </>
  );
}
