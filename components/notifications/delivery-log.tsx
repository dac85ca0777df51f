// The notifications log: filters in the URL (status, rule, channel), one row per delivery with its reason or answer.
import Form from "next/form";
import { Badge, Button, ButtonLink, Card, EmptyState, ScrollTable, Time } from "@/components/ui";
import { FilterSelect, Pager } from "@/components/ui/list-controls";
import type { NotificationDelivery } from "@/lib/notifications/rule-schemas";

const STATUS_COLOR = { pending: "blue", sent: "green", failed: "red", suppressed: "gray" } as const;
const REASON = { schedule: "Outside the schedule", cooldown: "Cooling down", stale: "Event too old" } as const;

export interface LogFilters {
  status?: string;
  rule?: string;
  channel?: string;
}

export function DeliveryLog({
  deliveries,
  filters,
  rules,
  channels,
  newestHref,
  olderHref,
}: {
  deliveries: NotificationDelivery[];
  filters: LogFilters;
  rules: Array<readonly [string, string]>;
  channels: Array<readonly [string, string]>;
  newestHref: string | null;
  olderHref: string | null;
}) {
  const name = (options: Array<readonly [string, string]>, id: string | null) => (id ? (options.find(([v]) => v === id)?.[1] ?? "(deleted)") : "(deleted)");
  const filtered = Object.values(filters).some(Boolean);
  return (
    <section aria-labelledby="log-heading" className="space-y-3">
      <h2 id="log-heading" className="text-base font-semibold text-slate-900">
        Log
      </h2>
      <Card className="p-4">
        <Form action="/notifications" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end" aria-label="Filter the log">
          <FilterSelect id="filter-status" className="sm:w-44" name="status" label="Status" value={filters.status} options={[["pending", "Pending"], ["sent", "Sent"], ["failed", "Failed"], ["suppressed", "Suppressed"]]} />
          <FilterSelect id="filter-rule" className="sm:w-44" name="rule" label="Rule" value={filters.rule} options={rules} />
          <FilterSelect id="filter-channel" className="sm:w-44" name="channel" label="Channel" value={filters.channel} options={channels} />
          <div className="flex items-center gap-2">
            <Button type="submit" variant="secondary">
              Filter
            </Button>
            {filtered ? (
              <ButtonLink href="/notifications" variant="ghost">
                Clear
              </ButtonLink>
            ) : null}
          </div>
        </Form>
      </Card>
      {deliveries.length === 0 ? (
        <EmptyState title={filtered ? "Nothing matches these filters" : "Nothing sent yet"}>
          {filtered ? "Try another status, rule or channel." : "Messages appear here when an event matches a rule, with the reason when one was held back."}
        </EmptyState>
      ) : (
        <Card className="overflow-hidden">
          <ScrollTable label="Notifications log">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-3">Message</th>
                  <th scope="col" className="px-3 py-3">Status</th>
                  <th scope="col" className="px-3 py-3">Rule → channel</th>
                  <th scope="col" className="px-3 py-3">Created</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {deliveries.map((d) => {
                  const last = d.attempts.at(-1);
                  return (
                    <tr key={d.id} data-testid="notification-row" className="align-top">
                      <td className="max-w-xs min-w-48 px-3 py-3">
                        <span className="block font-medium text-slate-900">{d.title}</span>
                        <span className="block text-xs break-words text-slate-600">{d.body}</span>
                      </td>
                      <td className="px-3 py-3 whitespace-nowrap">
                        <Badge color={STATUS_COLOR[d.status]}>{d.status}</Badge>
                        {d.reason ? <span className="mt-1 block text-xs text-slate-600">{REASON[d.reason]}</span> : null}
                        {last?.error && d.status !== "sent" ? <span className="mt-1 block max-w-48 truncate text-xs text-red-700">{last.error}</span> : null}
                        {d.attempts.length > 1 ? <span className="mt-1 block text-xs text-slate-600">{d.attempts.length} attempts</span> : null}
                      </td>
                      <td className="px-3 py-3 text-slate-700">
                        {name(rules, d.ruleId)} → {name(channels, d.channelId)}
                      </td>
                      <td className="px-3 py-3 whitespace-nowrap text-slate-600">
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
      <Pager newestHref={newestHref} olderHref={olderHref} />
    </section>
  );
}
