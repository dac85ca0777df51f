import type { Metadata } from "next";
import Link from "next/link";
import { FirstSteps } from "@/components/dashboard/first-steps";
import { BatteryIndicator, MotionSince, StatusIndicator } from "@/components/trackables/indicators";
import { DeleteTrackableButton } from "@/components/trackables/delete-trackable-button";
import { CommandBlock, FirstLocationHelp, createTrackableCurl } from "@/components/trackables/first-location-help";
import { FleetMap } from "@/components/trackables/maps";
import { TrackableFormDialog } from "@/components/trackables/trackable-form-dialog";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Alert, ButtonLink, Card, EmptyState, PageHeader, ScrollTable, Time } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/teams/roles";
import { env } from "@/lib/config/env";
import { mapConfig } from "@/lib/config/map";
import { ApiError } from "@/lib/http/errors";
import { getTrackableStatuses, listTrackablePositions } from "@/lib/trackables/status";
import { listTrackables } from "@/lib/trackables/trackables";
import { listAllGeofences } from "@/lib/geofences/geofences";
import { getMotionStates } from "@/lib/motion/dashboard";
import { listMapZones } from "@/lib/privacy-zones/privacy-zones";

export const metadata: Metadata = { title: "Trackables" };

const PAGE_SIZE = 25;
const MAP_LIMIT = 1000;

export default async function TrackablesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx, role } = await requireSession({ permission: "workspace.read" });
  // A viewer sees the list and the map without the buttons that would change them (the actions refuse them too).
  const canWrite = can(role, "trackables.write");
  const params = await searchParams;
  const cursor = typeof params.cursor === "string" && params.cursor ? params.cursor : undefined;
  const now = new Date();

  let page: Awaited<ReturnType<typeof listTrackables>>;
  let badCursor = false;
  try {
    page = await listTrackables({ ctx, query: { limit: PAGE_SIZE, cursor } });
  } catch (err) {
    // A hand-edited or stale ?cursor=: show the first page and say so instead of failing.
    if (!(err instanceof ApiError) || err.code !== "invalid_request") throw err;
    badCursor = true;
    page = await listTrackables({ ctx, query: { limit: PAGE_SIZE } });
  }
  const [statuses, positions, fences, motion, zones] = await Promise.all([
    getTrackableStatuses({ ctx, trackables: page.data, now }),
    listTrackablePositions({ ctx, limit: MAP_LIMIT, now }),
    listAllGeofences({ ctx }),
    getMotionStates({ ctx, trackableIds: page.data.map((t) => t.id) }),
    listMapZones({ ctx }),
  ]);
  const threshold = env().BATTERY_LOW_THRESHOLD;
  const appUrl = env().APP_URL;
  const firstPage = !cursor || badCursor;

  if (firstPage && page.data.length === 0) {
    return (
      <>
        <PageHeader title="Trackables" description="Everything that reports its position to Fenceline." actions={<LiveRefresh scope="trackables" />} />
        {canWrite ? <FirstSteps ctx={ctx} /> : null}
        <EmptyState title="No trackables yet" action={canWrite ? <TrackableFormDialog mode="create" /> : undefined}>
          <p>
            A trackable is a phone, a vehicle, a person or a parcel: anything that reports its position. Create one here;
            its page then shows the exact <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">curl</code> that
            posts its first position.
          </p>
        </EmptyState>
        <Card aria-labelledby="api-create-heading" className="mt-6 p-5">
          <h2 id="api-create-heading" className="text-base font-semibold text-slate-900">
            Or start from the API
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            With a key from the{" "}
            <Link href="/api-keys" className="font-medium text-indigo-600 hover:text-indigo-500">
              API keys
            </Link>{" "}
            page in <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">FENCELINE_API_KEY</code>, create a trackable, then
            post to <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">/api/v1/trackables/&lt;its id&gt;/locations</code>{" "}
            (the{" "}
            <Link href="/docs/api" className="font-medium text-indigo-600 hover:text-indigo-500">
              API reference
            </Link>{" "}
            has every field).
          </p>
          <CommandBlock command={createTrackableCurl(appUrl)} label="curl command to create a trackable" />
        </Card>
      </>
    );
  }

  const waiting = positions.data.length === 0 ? page.data[0] : undefined;
  return (
    <>
      <PageHeader
        title="Trackables"
        description="Everything that reports its position to Fenceline, with where and when it was last seen."
        actions={
          <>
            <LiveRefresh scope="trackables" />
            {canWrite ? <TrackableFormDialog mode="create" /> : null}
          </>
        }
      />
      {canWrite ? <FirstSteps ctx={ctx} /> : null}
      {badCursor ? (
        <div className="mb-4">
          <Alert tone="info">That page link has expired; here is the first page.</Alert>
        </div>
      ) : null}

      {waiting ? (
        <Card className="mb-6 p-5">
          <h2 className="text-base font-semibold text-slate-900">Waiting for a first position</h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">None of your trackables has reported yet. Send one position and it shows up on the map.</p>
          <FirstLocationHelp appUrl={appUrl} trackableId={waiting.id} trackableName={waiting.name} />
        </Card>
      ) : (
        <Card className="mb-6 overflow-hidden p-2">
          <FleetMap
            config={mapConfig()}
            className="h-72 w-full sm:h-96"
            fences={fences.map((g) => ({ id: g.id, name: g.name, latitude: g.latitude, longitude: g.longitude, radius: g.radius, rings: g.geometry?.coordinates ?? null }))}
            zones={zones}
            points={positions.data.map((p) => ({
              id: p.id,
              name: p.name,
              type: p.type,
              latitude: p.location.latitude,
              longitude: p.location.longitude,
              status: p.status,
              lastSeenAt: new Date(p.lastSeenAt).toISOString(),
            }))}
          />
          {positions.truncated ? (
            <p className="px-2 pt-2 text-xs text-slate-500">The map shows the {MAP_LIMIT} most recently created trackables that have a position.</p>
          ) : null}
        </Card>
      )}

      <Card className="overflow-hidden">
        <ScrollTable label="Trackables">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Trackables">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">Name</th>
              <th scope="col" className="hidden px-4 py-3 sm:table-cell">Type</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="hidden px-4 py-3 sm:table-cell">Last seen</th>
              <th scope="col" className="px-4 py-3">Battery</th>
              <th scope="col" className="hidden px-4 py-3 md:table-cell">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {page.data.map((t) => {
              const s = statuses.get(t.id) ?? { status: "never" as const, lastSeenAt: null };
              const lastSeen = <Time value={s.lastSeenAt} relative fallback="Never" />;
              return (
                <tr key={t.id} data-testid="trackable-row" className="hover:bg-slate-50/60">
                  <td className="px-4 py-3">
                    <Link href={`/trackables/${t.id}`} className="font-medium break-words text-slate-900 hover:text-indigo-600">
                      {t.name}
                    </Link>
                    <span className="block text-xs text-slate-500 sm:hidden">{t.type}</span>
                  </td>
                  <td className="hidden px-4 py-3 text-slate-600 sm:table-cell">{t.type}</td>
                  <td className="px-4 py-3">
                    <StatusIndicator status={s.status} />
                    <MotionSince motion={motion.get(t.id)} />
                    <span className="block text-xs whitespace-nowrap text-slate-500 sm:hidden">{lastSeen}</span>
                  </td>
                  <td className="hidden px-4 py-3 whitespace-nowrap text-slate-700 sm:table-cell" data-testid="last-seen">
                    {lastSeen}
                  </td>
                  <td className="px-4 py-3" data-testid="battery">
                    <BatteryIndicator level={t.lastLocation?.battery} threshold={threshold} />
                  </td>
                  <td className="hidden px-4 py-3 md:table-cell">
                    {canWrite ? (
                      <div className="flex justify-end gap-2">
                        <TrackableFormDialog mode="edit" size="sm" trackable={{ id: t.id, name: t.name, type: t.type }} />
                        <DeleteTrackableButton id={t.id} name={t.name} />
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
            {page.data.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-4 py-8 text-center text-slate-500">
                  No more trackables.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
        </ScrollTable>
      </Card>

      {!firstPage || page.nextCursor ? (
        <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-2">
          {!firstPage ? (
            <ButtonLink href="/trackables" variant="secondary" size="sm">
              ← First page
            </ButtonLink>
          ) : (
            <span />
          )}
          {page.nextCursor ? (
            <ButtonLink href={`/trackables?cursor=${encodeURIComponent(page.nextCursor)}`} variant="secondary" size="sm">
              Next page →
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
