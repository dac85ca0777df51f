import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { accounts, memberships, type AccountRow, type Role } from "@/lib/db/schema";

export interface Workspace {
  account: AccountRow;
  role: Role;
}

/** Every workspace the user belongs to, in the order they joined them. */
export async function listWorkspaces(executor: Executor, userId: string): Promise<Workspace[]> {
  return executor
    .select({ account: accounts, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.accountId));
}

/** The user's membership of one workspace with the workspace, or null when they do not (or no longer) belong to it. */
export async function findWorkspace(executor: Executor, userId: string, accountId: string): Promise<Workspace | null> {
  const [row] = await executor
    .select({ account: accounts, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)))
    .limit(1);
  return row ?? null;
}

/**
 * The workspace a request acts in: the one chosen in this browser when the user still belongs to it, else the one
 * they used last, else the first they joined; null when they belong to none.
 */
export async function currentWorkspace(
  executor: Executor,
  user: { id: string; accountId: string },
  chosen: string | undefined,
): Promise<Workspace | null> {
  for (const accountId of new Set([chosen, user.accountId])) {
    if (!accountId || !/^[0-9a-f-]{36}$/i.test(accountId)) continue;
    const found = await findWorkspace(executor, user.id, accountId);
    if (found) return found;
  }
  const [first] = await listWorkspaces(executor, user.id);
  return first ?? null;
}
