import { Card } from "@/components/ui";

/** What a webhook page shows on the free plan: why it is empty, instead of an error. */
export function PlanRequired({ feature }: { feature: string }) {
  return (
    <Card className="max-w-2xl p-6" data-testid="plan-required">
      <h2 className="text-base font-semibold text-slate-900">Webhooks need the Enterprise plan</h2>
      <p className="mt-2 text-sm text-slate-600">
        {feature} are part of the Enterprise plan. Your geofences, trackables and their locations keep working on the free plan
        and are available through the API; ask the operator of this installation to move the account to Enterprise
        (<code className="rounded bg-slate-100 px-1 py-0.5 text-xs break-all text-slate-700">npm run apikey:create -- --email &lt;your email&gt; --plan enterprise</code>).
      </p>
    </Card>
  );
}
