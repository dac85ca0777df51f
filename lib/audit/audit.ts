import type { Ctx, Actor } from "@/lib/context";
import type { Executor, Tx } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import { changesOf } from "./changes";

export interface AuditEntry {
  /** "<objectType>.<verb>", e.g. "geofence.updated". */
  action: string;
  objectType: string;
  objectId: string;
  /** The object as the API shows it before and after the change (null or absent: created / deleted). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Records a change made by ctx's actor, in ctx's transaction: the entry exists exactly when the change is committed.
 * A ctx without an actor (an operator script, a background job) records nothing; an update that changed no field
 * records nothing either.
 */
export async function audit(ctx: Ctx & { tx: Tx }, entry: AuditEntry): Promise<void> {
  if (!ctx.actor) return;
  await writeAudit(ctx.tx, { accountId: ctx.account.id, actor: ctx.actor, clientAddress: ctx.clientAddress ?? null }, entry);
}

/** For changes made outside a verb's ctx (sign-ins, a user's own settings): who and from where, explicitly. */
export async function writeAudit(
  executor: Executor,
  who: { accountId: string; actor: Actor; clientAddress: string | null },
  entry: AuditEntry,
): Promise<void> {
  const changes = changesOf(entry.before, entry.after);
  const isUpdate = entry.before != null && entry.after != null;
  if (isUpdate && Object.keys(changes).length === 0) return;
  await executor.insert(auditLog).values({
    accountId: who.accountId,
    actorType: who.actor.type,
    actorId: who.actor.id,
    actorName: who.actor.name,
    clientAddress: who.clientAddress,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    changes,
  });
}
