import type { Metadata } from "next";
import { findOr404 } from "@/lib/dashboard/find-or-404";
import Link from "next/link";
import { PlanRequired } from "@/components/dashboard/plan-required";
import { Alert, PageHeader, Time } from "@/components/ui";
import { DisabledBanner, EndpointTools } from "@/components/webhooks/endpoint-tools";
import { WebhookForm } from "@/components/webhooks/webhook-form";
import { requireSession } from "@/lib/auth/session";
import { isEnterprise } from "@/lib/dashboard/plan";
import { getWebhook } from "@/lib/webhooks/webhooks";

export const metadata: Metadata = { title: "Webhook endpoint" };

export default async function WebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ webhookId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ctx } = await requireSession({ permission: "webhooks.manage" });
  const { webhookId } = await params;
  const { created } = await searchParams;
  const back = (
    <Link href="/webhooks" className="text-sm text-slate-600 hover:text-slate-900">
      ← Webhooks
    </Link>
  );
  if (!isEnterprise(ctx)) {
    return (
      <>
        {back}
        <div className="mt-2">
          <PageHeader title="Webhook endpoint" />
        </div>
        <PlanRequired feature="Webhook endpoints" />
      </>
    );
  }
  const webhook = await findOr404(webhookId, (id) => getWebhook({ ctx, id }));
  return (
    <>
      {back}
      <div className="mt-2">
        <PageHeader
          title="Webhook endpoint"
          description={
            <>
              Created <Time value={webhook.createdAt} /> ·{" "}
              <Link className="font-medium text-indigo-700 hover:underline" href={`/deliveries?webhook=${webhook.id}`}>
                Delivery history →
              </Link>
            </>
          }
        />
      </div>
      {created === "1" ? (
        <div className="mb-4 max-w-2xl">
          <Alert tone="success">Endpoint created. Events start flowing with the next location.</Alert>
        </div>
      ) : null}
      <DisabledBanner webhook={webhook} />
      {/* Keyed by the state the service may change, so a re-enabled endpoint's form starts from the new state. */}
      <WebhookForm key={`${webhook.enabled}-${webhook.secretSet}`} webhook={webhook} />
      <EndpointTools webhook={webhook} />
    </>
  );
}
