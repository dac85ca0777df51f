import type { Metadata } from "next";
import { findOr404 } from "@/lib/dashboard/find-or-404";
import Link from "next/link";
import type { ReactNode } from "react";
import { PlanRequired } from "@/components/dashboard/plan-required";
import { AutoRefresh } from "@/components/deliveries/auto-refresh";
import { geofenceName, trackableName } from "@/components/deliveries/describe";
import { RedeliverButton } from "@/components/deliveries/redeliver-button";
import { DeliveryStatusBadge, HttpCode } from "@/components/deliveries/status-badge";
import { Badge, Card, PageHeader, Time } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import { requireSession } from "@/lib/auth/session";
import { isEnterprise } from "@/lib/dashboard/plan";
import { labelDeliveries } from "@/lib/webhooks/delivery-labels";
import { getDelivery } from "@/lib/webhooks/delivery-history";

export const metadata: Metadata = { title: "Delivery" };

export default async function DeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const { ctx } = await requireSession({ permission: "webhooks.manage" });
  const { deliveryId } = await params;
  const back = (
    <Link href="/deliveries" className="text-sm text-slate-600 hover:text-slate-900">
      ← Deliveries
    </Link>
  );
  if (!isEnterprise(ctx)) {
    return (
      <>
        {back}
        <div className="mt-2">
          <PageHeader title="Delivery" />
        </div>
        <PlanRequired feature="Webhook deliveries and their history" />
      </>
    );
  }
  const d = await findOr404(deliveryId, (id) => getDelivery({ ctx, id }));
  const labels = await labelDeliveries({ ctx, deliveries: [d] });
  const gName = geofenceName(d, labels);
  const endpoint = d.webhookId ? labels.webhooks[d.webhookId] : undefined;

  return (
    <>
      {back}
      <div className="mt-2">
        <PageHeader
          title={d.event}
          description={
            <span className="inline-flex flex-wrap items-center gap-2">
              <DeliveryStatusBadge status={d.status} />
              {d.test ? <Badge color="blue">Test</Badge> : null}
              <span>
                Created <Time value={d.createdAt} seconds />
              </span>
              <AutoRefresh active={d.status === "pending"} />
            </span>
          }
          actions={<RedeliverButton id={d.id} />}
        />
      </div>

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          <Card className="p-5">
            <h2 className="text-sm font-semibold text-slate-900">Summary</h2>
            <dl className="mt-3 divide-y divide-slate-100 text-sm">
              <Row term="Delivery id">
                <span className="flex flex-wrap items-center gap-2">
                  <code className="font-mono text-xs break-all text-slate-800" data-testid="delivery-id">
                    {d.id}
                  </code>
                  <CopyButton value={d.id} />
                </span>
                <span className="mt-1 block text-xs text-slate-500">Sent as X-Service-Delivery on every attempt: use it to de-duplicate.</span>
              </Row>
              <Row term="Sent to">
                <span className="font-mono text-xs break-all">{d.url}</span>
              </Row>
              {d.webhookId ? (
                <Row term="Endpoint">
                  <Link href={`/webhooks/${d.webhookId}`} className="font-medium text-indigo-700 hover:underline">
                    {endpoint?.description || "Account endpoint"}
                  </Link>
                </Row>
              ) : null}
              {gName ? (
                <Row term="Geofence">
                  {d.geofenceId && labels.geofences[d.geofenceId] ? (
                    <Link href={`/geofences?geofence=${d.geofenceId}`} className="font-medium text-indigo-700 hover:underline">
                      {gName}
                    </Link>
                  ) : (
                    <span className="text-slate-600">{gName} (deleted)</span>
                  )}
                </Row>
              ) : null}
              <Row term="Trackable">{trackableName(d, labels) ?? <span className="text-slate-500">—</span>}</Row>
              <Row term="Attempts">{d.attempts.length}</Row>
              {d.status === "pending" ? (
                <Row term="Next retry">
                  <span data-testid="next-retry">
                    {d.nextAttemptAt ? <Time value={d.nextAttemptAt} relative seconds /> : d.attempts.length === 0 ? "Sending now" : "In progress"}
                  </span>
                  {d.nextAttemptAt ? <span className="ml-2 text-xs text-slate-500">({d.nextAttemptAt})</span> : null}
                </Row>
              ) : null}
            </dl>
          </Card>
          <Card className="p-5">
            <h2 className="text-sm font-semibold text-slate-900">Payload</h2>
            <pre tabIndex={0} aria-label="Payload (scrollable)" className="mt-3 max-h-[32rem] overflow-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100" data-testid="delivery-payload">
              {JSON.stringify(d.payload, null, 2)}
            </pre>
          </Card>
        </div>

        <Card className="p-5">
          <h2 className="text-sm font-semibold text-slate-900">Attempts</h2>
          {d.attempts.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No attempt yet: the first one is being sent.</p>
          ) : (
            <ol className="mt-3 space-y-4">
              {[...d.attempts].reverse().map((a) => {
                const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
                return (
                  <li key={a.number} className="rounded-lg ring-1 ring-slate-200" data-testid="delivery-attempt">
                    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-100 px-4 py-2.5 text-sm">
                      <span className="font-semibold text-slate-900">Attempt {a.number}</span>
                      <Badge color={ok ? "green" : a.error === "In progress" || a.interrupted ? "yellow" : "red"}>
                        {ok ? "Succeeded" : a.error === "In progress" ? "In progress" : a.interrupted ? "Interrupted" : "Failed"}
                      </Badge>
                      <span className="text-slate-600">
                        <Time value={a.attemptedAt} seconds />
                      </span>
                      <span className="text-slate-600">
                        HTTP <HttpCode code={a.statusCode} />
                      </span>
                      <span className="text-slate-600">{a.durationMs === null ? "—" : `${a.durationMs} ms`}</span>
                    </div>
                    <div className="space-y-2 px-4 py-3">
                      {a.error && a.error !== "In progress" ? <p className={`text-sm ${a.interrupted ? "text-amber-800" : "text-red-700"}`}>{a.error}</p> : null}
                      {a.responseBody ? (
                        <>
                          <p className="text-xs font-medium text-slate-500">Response body (first 4096 bytes)</p>
                          <pre tabIndex={0} aria-label={`Response body of attempt ${a.number}`} className="max-h-64 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-800 ring-1 ring-slate-200">
                            {a.responseBody}
                          </pre>
                        </>
                      ) : a.error !== "In progress" ? (
                        <p className="text-xs text-slate-500">Empty response body.</p>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
        </Card>
      </div>
    </>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[8rem_minmax(0,1fr)]">
      <dt className="text-slate-500">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}
