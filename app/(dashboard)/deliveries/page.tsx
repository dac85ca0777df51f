import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { PlanRequired } from "@/components/dashboard/plan-required";
import { geofenceName, lastAttempt, trackableName } from "@/components/deliveries/describe";
import { DeliveryStatusBadge, HttpCode } from "@/components/deliveries/status-badge";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Alert, Badge, Button, ButtonLink, Card, EmptyState, PageHeader, Time, ScrollTable } from "@/components/ui";
import { FilterSelect, Pager } from "@/components/ui/list-controls";
import { EVENT_KINDS } from "@/components/webhooks/events";
import { requireSession } from "@/lib/auth/session";
import { isEnterprise } from "@/lib/dashboard/plan";
import { listAllGeofences } from "@/lib/geofences/geofences";
import { ApiError } from "@/lib/http/errors";
import { labelDeliveries } from "@/lib/webhooks/delivery-labels";
import { listDeliveries } from "@/lib/webhooks/delivery-history";
import { DeliveryListQuery } from "@/lib/webhooks/delivery-schemas";

export const metadata: Metadata = { title: "Deliveries" };

const PAGE_SIZE = 25;
type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : undefined);

/** /deliveries?status=&event=&geofence=&webhook=&cursor= — the filters live in the URL, so every view is linkable. */
export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { ctx } = await requireSession({ permission: "webhooks.manage" });
  const header = <PageHeader title="Deliveries" description="Every webhook sent by this account, with each attempt and the receiver's answer." />;
  if (!isEnterprise(ctx)) {
    return (
      <>
        {header}
        <PlanRequired feature="Webhook deliveries and their history" />
      </>
    );
  }
  const sp = await searchParams;
  const filters = { status: one(sp.status), event: one(sp.event), geofence: one(sp.geofence), webhook: one(sp.webhook) };
  const parsed = DeliveryListQuery.safeParse({
    status: filters.status,
    event: filters.event,
    geofenceId: filters.geofence,
    webhookId: filters.webhook,
    cursor: one(sp.cursor),
    limit: PAGE_SIZE,
  });
  let problem: string | null = parsed.success ? null : "Some filters in the address were not understood and were ignored.";
  const query = parsed.success ? parsed.data : { limit: PAGE_SIZE };
  const page = await listDeliveries({ ctx, query }).catch(async (err) => {
    if (!(err instanceof ApiError) || err.code !== "invalid_request") throw err;
    problem = "That page link is no longer valid: showing the newest deliveries.";
    return listDeliveries({ ctx, query: { ...query, cursor: undefined } });
  });
  const [labels, geofences] = [await labelDeliveries({ ctx, deliveries: page.data }), await listAllGeofences({ ctx })];
  const keep = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `/deliveries?${s}` : "/deliveries";
  };
  const filtered = Object.values(filters).some(Boolean);
  const webhookFilter = filters.webhook;

  return (
    <>
      {header}
      <Card className="mb-4 p-4">
        <Form action="/deliveries" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end" aria-label="Filter deliveries">
          <FilterSelect id="filter-status" className="sm:w-48" name="status" label="Status" value={filters.status} options={[["pending", "Pending"], ["succeeded", "Succeeded"], ["failed", "Failed"]]} />
          <FilterSelect id="filter-event" className="sm:w-48" name="event" label="Event" value={filters.event} options={EVENT_KINDS.map((k) => [k.value, k.value])} />
          <FilterSelect id="filter-geofence" className="sm:w-48" name="geofence" label="Geofence" value={filters.geofence} options={geofences.map((g) => [g.id, g.name])} />
          {webhookFilter ? <input type="hidden" name="webhook" value={webhookFilter} /> : null}
          <div className="flex items-center gap-2">
            <Button type="submit" variant="secondary">
              Filter
            </Button>
            {filtered ? (
              <ButtonLink href="/deliveries" variant="ghost">
                Clear
              </ButtonLink>
            ) : null}
          </div>
          <div className="sm:ml-auto">
            <LiveRefresh scope="deliveries" />
          </div>
        </Form>
        {webhookFilter ? (
          <p className="mt-3 text-xs text-slate-600">
            Only deliveries to one endpoint.{" "}
            <Link href={keep({ webhook: undefined })} className="font-medium text-indigo-700 hover:underline">
              Show all endpoints
            </Link>
          </p>
        ) : null}
      </Card>
      {problem ? (
        <div className="mb-4">
          <Alert tone="info">{problem}</Alert>
        </div>
      ) : null}

      {page.data.length === 0 ? (
        <EmptyState title={filtered ? "No deliveries match these filters" : "No deliveries yet"}>
          {filtered ? (
            "Try another status or event, or clear the filters."
          ) : (
            <>
              Deliveries appear here when a trackable enters or leaves a geofence with a webhook, when an endpoint&apos;s
              events happen, or when you send a test from the{" "}
              <Link href="/geofences" className="font-medium text-indigo-700 hover:underline">
                geofence editor
              </Link>
              .
            </>
          )}
        </EmptyState>
      ) : (
        <Card className="overflow-hidden">
          <ScrollTable label="Deliveries">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-3 py-3">Event</th>
                <th scope="col" className="px-3 py-3">Sent to</th>
                <th scope="col" className="px-3 py-3">Trackable</th>
                <th scope="col" className="px-3 py-3">Status</th>
                <th scope="col" className="px-3 py-3 text-right">Attempts</th>
                <th scope="col" className="px-3 py-3 text-right">HTTP</th>
                <th scope="col" className="px-3 py-3">Created</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {page.data.map((d) => {
                const gName = geofenceName(d, labels);
                const endpoint = d.webhookId ? labels.webhooks[d.webhookId] : undefined;
                const last = lastAttempt(d);
                return (
                  <tr key={d.id} data-testid="delivery-row" data-delivery-id={d.id} className="hover:bg-slate-50">
                    <td className="px-3 py-3 whitespace-nowrap">
                      <Link href={`/deliveries/${d.id}`} className="font-mono text-xs font-medium text-indigo-700 hover:underline">
                        {d.event}
                      </Link>
                      {d.test ? (
                        <Badge color="blue" className="ml-2">
                          Test
                        </Badge>
                      ) : null}
                    </td>
                    <td className="max-w-56 px-3 py-3">
                      {d.webhookId ? (
                        <>
                          <Link href={`/webhooks/${d.webhookId}`} className="block truncate font-mono text-xs text-slate-700 hover:underline" title={d.url}>
                            {endpoint?.url ?? d.url}
                          </Link>
                          {gName ? <span className="block truncate text-xs text-slate-500">{gName}</span> : null}
                        </>
                      ) : gName ? (
                        d.geofenceId && labels.geofences[d.geofenceId] ? (
                          <Link href={`/geofences?geofence=${d.geofenceId}`} className="block truncate font-medium text-slate-900 hover:underline">
                            {gName}
                          </Link>
                        ) : (
                          <span className="block truncate text-slate-500">{gName} (deleted)</span>
                        )
                      ) : (
                        <span className="block truncate font-mono text-xs text-slate-700">{d.url}</span>
                      )}
                    </td>
                    <td className="max-w-40 truncate px-3 py-3 text-slate-700">{trackableName(d, labels) ?? <span className="text-slate-500">—</span>}</td>
                    <td className="px-3 py-3">
                      <DeliveryStatusBadge status={d.status} />
                    </td>
                    <td className="px-3 py-3 text-right tabular-nums" data-testid="delivery-attempts">
                      {d.attempts.length}
                    </td>
                    <td className="px-3 py-3 text-right">
                      <HttpCode code={last?.statusCode ?? null} />
                    </td>
                    <td className="min-w-32 px-3 py-3 whitespace-nowrap text-slate-600">
                      <Time value={d.createdAt} relative seconds />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollTable>
        </Card>
      )}
      <Pager newestHref={one(sp.cursor) ? keep({}) : null} olderHref={page.nextCursor ? keep({ cursor: page.nextCursor }) : null} />
    </>
  );
}
