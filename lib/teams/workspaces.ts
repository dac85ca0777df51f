import { eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/audit";
import { userActor } from "@/lib/audit/users";
import { slugFor } from "@/lib/auth/users";
import { env } from "@/lib/config/env";
import type { Executor } from "@/lib/db/client";
import { accounts, memberships, users, type AccountRow, type UserRow } from "@/lib/db/schema";

/**
 * A new workspace on DEFAULT_PLAN owned by the user, which becomes the one their dashboard opens. In the caller's
 * transaction when given one. Audited in the new workspace's log.
 */
export async function createWorkspace(
  executor: Executor,
  user: Pick<UserRow, "id" | "email" | "name">,
  input: { name: string },
  { clientAddress = null }: { clientAddress?: string | null } = {},
): Promise<AccountRow> {
  const [account] = await executor.insert(accounts).values({ slug: slugFor(user.email), name: input.name, plan: env().DEFAULT_PLAN }).returning();
  await executor.insert(memberships).values({ accountId: account!.id, userId: user.id, role: "owner" });
  await executor.update(users).set({ accountId: account!.id }).where(eq(users.id, user.id));
  await writeAudit(
    executor,
    { accountId: account!.id, actor: userActor(user), clientAddress },
    { action: "account.created", objectType: "account", objectId: account!.id, after: { name: account!.name } },
  );
  return account!;
}
