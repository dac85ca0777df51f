import { Badge, Card, Time } from "@/components/ui";
import type { AuditEntry } from "@/lib/audit/schemas";
import { actionColor, actionLabel, objectTypeLabel, shortValue } from "./labels";

function Actor({ entry }: { entry: AuditEntry }) {
  return (
    <>
      <span className="font-medium break-words text-slate-900">{entry.actor.name}</span>
      <span className="block text-xs text-slate-500">
        {entry.actor.type === "apiKey" ? "API key" : "User"}
        {entry.clientAddress ? ` · ${entry.clientAddress}` : ""}
      </span>
    </>
  );
}

function Changes({ changes }: { changes: AuditEntry["changes"] }) {
  const fields = Object.entries(changes);
  if (fields.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-slate-600" aria-label="Changes">
      {fields.map(([field, [before, after]]) => (
        <li key={field} className="break-words">
          <span className="font-mono text-slate-800">{field}</span>: {shortValue(before)} → {shortValue(after)}
        </li>
      ))}
    </ul>
  );
}

// The audit log's rows, laid out as the events page's: the time in the viewer's zone, then what happened; who did it
// has its own column from 640 px and sits under the action below that, so a phone needs no sideways scrolling.
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Card className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Audit log">
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">When</th>
            <th scope="col" className="px-4 py-3">What</th>
            <th scope="col" className="hidden px-4 py-3 sm:table-cell">Who</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((e) => (
            <tr key={e.id} data-testid="audit-row" data-action={e.action} className="align-top hover:bg-slate-50/60">
              <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                <Time value={e.occurredAt} relative />
                <Time className="block text-xs text-slate-500" value={e.occurredAt} seconds data-testid="audit-time" />
              </td>
              <td className="min-w-0 px-4 py-3">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <Badge color={actionColor(e.action)}>{actionLabel(e.action)}</Badge>
                  <span className="min-w-0 font-mono text-xs break-all text-slate-500" title={`${objectTypeLabel(e.objectType)} ${e.objectId}`}>
                    {e.objectId}
                  </span>
                </div>
                <Changes changes={e.changes} />
                <div className="mt-2 text-sm sm:hidden">
                  <Actor entry={e} />
                </div>
              </td>
              <td className="hidden px-4 py-3 sm:table-cell">
                <Actor entry={e} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
