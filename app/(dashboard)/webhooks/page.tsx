import type { Metadata } from "next";
import Link from "next/link";
import { PlanRequired } from "@/components/dashboard/plan-required";
import { Badge, ButtonLink, Card, EmptyState, PageHeader, Time, ScrollTable } from "@/components/ui";
import { EnabledToggle } from "@/components/webhooks/enabled-toggle";
import { requireSession } from "@/lib/auth/session";
import { isEnterprise } from "@/lib/dashboard/plan";
import { listWebhooks } from "@/lib/webhooks/webhooks";

export const metadata: Metadata = { title: "Webhooks" };

const DESCRIPTION = "Account endpoints that receive events from every geofence and trackable: signed JSON POSTs, retried on failure.";

export default async function WebhooksPage() {
  const { ctx } = await requireSession({ permission: "webhooks.manage" });
  if (!isEnterprise(ctx)) {
    return (
      <>
        <PageHeader title="Webhooks" description={DESCRIPTION} />
        <PlanRequired feature="Webhook endpoints" />
      </>
    );
  }
  const { data: endpoints, nextCursor } = await listWebhooks({ ctx, query: { limit: 100 } });
  return (
    <>
      <PageHeader title="Webhooks" description={DESCRIPTION} actions={<ButtonLink href="/webhooks/new">Add endpoint</ButtonLink>} />
      {endpoints.length === 0 ? (
        <EmptyState title="No endpoints yet" action={<ButtonLink href="/webhooks/new">Add your first endpoint</ButtonLink>}>
          Add a URL and choose the events it receives. Geofences can also notify their own URL: set it in the geofence editor.
        </EmptyState>
      ) : (
        <Card className="overflow-hidden">
          <ScrollTable label="Webhook endpoints">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">Endpoint</th>
                <th scope="col" className="px-4 py-3">Events</th>
                <th scope="col" className="px-4 py-3">Signing</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="px-4 py-3">Created</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {endpoints.map((w) => (
                <tr key={w.id} data-testid="webhook-row" className="align-top">
                  <td className="max-w-xs min-w-52 px-4 py-3">
                    <Link href={`/webhooks/${w.id}`} className="block font-mono text-xs font-medium break-all text-indigo-700 hover:underline">
                      {w.url}
                    </Link>
                    {w.description ? <span className="mt-1 block text-xs text-slate-500">{w.description}</span> : null}
                  </td>
                  <td className="px-4 py-3">
                    <span className="flex max-w-xs flex-wrap gap-1">
                      {w.events.map((e) => (
                        <Badge key={e} color="gray">
                          {e}
                        </Badge>
                      ))}
                    </span>
                  </td>
                  <td className="px-4 py-3">{w.secretSet ? <Badge color="green">Signed</Badge> : <Badge>Unsigned</Badge>}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <EnabledToggle id={w.id} enabled={w.enabled} label={`Enabled: ${w.url}`} />
                    {w.disabledReason ? (
                      <span className="mt-1 block">
                        <Badge color="yellow">{w.disabledReason === "gone" ? "Switched off: 410 Gone" : "Switched off: failing"}</Badge>
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                    <Time value={w.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
          {nextCursor ? <p className="px-4 py-3 text-xs text-slate-500">Showing the newest 100 endpoints.</p> : null}
        </Card>
      )}
    </>
  );
}
