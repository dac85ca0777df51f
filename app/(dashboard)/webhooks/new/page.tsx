import type { Metadata } from "next";
import Link from "next/link";
import { PlanRequired } from "@/components/dashboard/plan-required";
import { PageHeader } from "@/components/ui";
import { WebhookForm } from "@/components/webhooks/webhook-form";
import { requireSession } from "@/lib/auth/session";
import { isEnterprise } from "@/lib/dashboard/plan";

export const metadata: Metadata = { title: "New webhook endpoint" };

export default async function NewWebhookPage() {
  const { ctx } = await requireSession({ permission: "webhooks.manage" });
  return (
    <>
      <Link href="/webhooks" className="text-sm text-slate-600 hover:text-slate-900">
        ← Webhooks
      </Link>
      <div className="mt-2">
        <PageHeader title="New endpoint" description="Events are sent as signed JSON POSTs; a non-2xx answer is retried." />
      </div>
      {isEnterprise(ctx) ? <WebhookForm webhook={null} /> : <PlanRequired feature="Webhook endpoints" />}
    </>
  );
}
