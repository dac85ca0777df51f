import type { Metadata } from "next";
import { AuditFilters } from "@/components/audit/audit-filters";
import { AuditTable } from "@/components/audit/audit-table";
import { CollapsibleFilters } from "@/components/events/collapsible-filters";
import { Alert, Card, EmptyState, PageHeader } from "@/components/ui";
import { Pager } from "@/components/ui/list-controls";
import { listAuditLog } from "@/lib/audit/audit-log";
import { auditFilterOptions } from "@/lib/audit/page-data";
import { AuditLogQuery } from "@/lib/audit/schemas";
import { requireSession } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";

export const metadata: Metadata = { title: "Audit log" };

const PAGE_SIZE = 25;
type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : undefined);

/** /audit-log?actorId=&action=&objectType=&from=&to=&cursor= — who changed what (GET /api/v1/audit-log), filters in the URL. */
export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { ctx } = await requireSession({ permission: "auditLog.read" });
  const sp = await searchParams;
  const filters = { actorId: one(sp.actorId), action: one(sp.action), objectType: one(sp.objectType), from: one(sp.from), to: one(sp.to) };
  const cursor = one(sp.cursor);
  const parsed = AuditLogQuery.safeParse({ ...filters, cursor, limit: PAGE_SIZE });
  let problem: string | null = parsed.success
    ? null
    : `Some filters in the address were not understood and were ignored: ${parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join("; ")}.`;
  if (parsed.success && parsed.data.from && parsed.data.to && parsed.data.from > parsed.data.to) problem = "The start of the time range is after its end: nothing can match.";
  const query = parsed.success ? parsed.data : { limit: PAGE_SIZE };
  const [page, options] = await Promise.all([
    listAuditLog({ ctx, query }).catch(async (err) => {
      if (!(err instanceof ApiError) || err.code !== "invalid_request") throw err;
      problem = "That page link is no longer valid: showing the newest entries.";
      return listAuditLog({ ctx, query: { ...query, cursor: undefined } });
    }),
    auditFilterOptions({ ctx }),
  ]);
  const keep = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `/audit-log?${s}` : "/audit-log";
  };
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what in this workspace, and when: keys, trackables, geofences, webhooks, notifications, share links, privacy zones, settings and sign-ins. Secrets are never shown."
      />
      <Card className="mb-4 p-4">
        <CollapsibleFilters active={Object.values(filters).filter(Boolean).length}>
          <AuditFilters values={filters} options={options} />
        </CollapsibleFilters>
      </Card>
      {problem ? (
        <div className="mb-4">
          <Alert tone="info">{problem}</Alert>
        </div>
      ) : null}
      {page.data.length === 0 ? (
        <EmptyState title={filtered ? "No entries match these filters" : "No entries yet"}>
          {filtered
            ? "Try someone else, another action or time range, or clear the filters."
            : "Every change to the workspace's configuration, made here or through the API, is recorded here."}
        </EmptyState>
      ) : (
        <AuditTable entries={page.data} />
      )}
      <Pager newestHref={cursor ? keep({}) : null} olderHref={page.nextCursor ? keep({ cursor: page.nextCursor }) : null} />
    </>
  );
}
