import type { Metadata } from "next";
import { ChannelsSection } from "@/components/notifications/channels-section";
import { DeliveryLog } from "@/components/notifications/delivery-log";
import { RulesSection } from "@/components/notifications/rules-section";
import { Alert, PageHeader } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import { notificationsPage } from "@/lib/notifications/page-data";

export const metadata: Metadata = { title: "Notifications" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : undefined);

/** /notifications?status=&rule=&channel=&cursor= — channels, rules and the log (its filters live in the URL). */
export default async function NotificationsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { ctx } = await requireSession({ permission: "notifications.manage" });
  const sp = await searchParams;
  const filters = { status: one(sp.status), rule: one(sp.rule), channel: one(sp.channel) };
  const data = await notificationsPage({ ctx, filters, cursor: one(sp.cursor) });
  const href = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
    return q.size ? `/notifications?${q}` : "/notifications";
  };
  return (
    <>
      <PageHeader title="Notifications" description="Messages to people's phones and inboxes when events happen: where they go (channels), which events and when (rules), and what was sent." />
      {data.problem ? (
        <div className="mb-4">
          <Alert tone="info">{data.problem}</Alert>
        </div>
      ) : null}
      <div className="space-y-8">
        <ChannelsSection channels={data.channels} types={data.channelTypes} />
        <RulesSection rules={data.rules} options={data.options} />
        <DeliveryLog
          deliveries={data.log.data}
          filters={filters}
          rules={data.ruleOptions}
          channels={data.options.channels}
          newestHref={one(sp.cursor) ? href({}) : null}
          olderHref={data.log.nextCursor ? href({ cursor: data.log.nextCursor }) : null}
        />
      </div>
    </>
  );
}
