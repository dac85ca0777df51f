import { asc, eq } from "drizzle-orm";
import { listApiKeys } from "@/lib/api-keys/keys";
import { listAccountMembers } from "@/lib/accounts/accounts";
import { exec, type Ctx } from "@/lib/context";
import { auditLog } from "@/lib/db/schema";

/**
 * The choices of the audit log page's filters: whoever can act in the workspace (its users, its API keys, revoked
 * ones too) and the actions and object types its log holds.
 */
export async function auditFilterOptions({ ctx }: { ctx: Ctx }) {
  const [members, keys, actions] = await Promise.all([
    listAccountMembers({ ctx }),
    listApiKeys({ db: ctx.db, accountId: ctx.account.id }),
    exec(ctx).selectDistinct({ action: auditLog.action }).from(auditLog).where(eq(auditLog.accountId, ctx.account.id)).orderBy(asc(auditLog.action)),
  ]);
  const actors: [string, string][] = [
    ...members.map((m) => [m.id, `${m.name ?? m.email} (user)`] as [string, string]),
    ...keys.map((k) => [k.id, `${k.name} (API key${k.revokedAt ? ", revoked" : ""})`] as [string, string]),
  ];
  const objectTypes = [...new Set(actions.map((a) => a.action.split(".")[0]!))].sort();
  return { actors, actions: actions.map((a) => a.action), objectTypes };
}
