import { and, desc, eq, gte, lte } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
import { auditLog, type AuditLogRow } from "@/lib/db/schema";
import { decodeCursor, paginate, olderThan } from "@/lib/http/pagination";
import type { AuditEntry, AuditLogQuery } from "./schemas";

export function serializeAuditEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    clientAddress: row.clientAddress,
    action: row.action,
    objectType: row.objectType,
    objectId: row.objectId,
    changes: row.changes,
  };
}

const AuditCursor = z.object({ occurredAt: z.iso.datetime({ precision: 3 }), id: z.uuid() });

/** GET /audit-log: ctx's account's entries, newest first by (occurredAt, id), filtered; filters combine. */
export async function listAuditLog({ ctx, query }: { ctx: Ctx; query: AuditLogQuery }) {
  const after = query.cursor ? decodeCursor(query.cursor, AuditCursor) : null;
  const afterAt = after ? new Date(after.occurredAt) : null;
  const rows = await exec(ctx)
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.accountId, ctx.account.id),
        query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
        query.action ? eq(auditLog.action, query.action) : undefined,
        query.objectType ? eq(auditLog.objectType, query.objectType) : undefined,
        query.from ? gte(auditLog.occurredAt, query.from) : undefined,
        query.to ? lte(auditLog.occurredAt, query.to) : undefined,
        after && afterAt ? olderThan(auditLog.occurredAt, auditLog.id, afterAt, after.id) : undefined,
      ),
    )
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ occurredAt: r.occurredAt.toISOString(), id: r.id }));
  return { data: page.map(serializeAuditEntry), nextCursor };
}
