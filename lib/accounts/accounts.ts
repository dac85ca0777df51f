import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { forgetVerifiedKeys } from "@/lib/api-keys/keys";
import { env } from "@/lib/config/env";
import { audit } from "@/lib/audit/audit";
import { exec, withTransaction, type Ctx, type Plan } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { accounts, events, memberships, users, type AccountRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import type { AccountMember, DeleteWorkspaceInput, UpdateAccountInput } from "./schemas";

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export async function getAccount(db: Db, id: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
  return row ?? null;
}

/**
 * Finds the account with this slug or creates it (with `plan`, else DEFAULT_PLAN). When the account exists and a
 * plan is given, the account is moved to that plan.
 */
export async function ensureAccount(db: Db, input: { slug: string; plan?: Plan; name?: string }): Promise<AccountRow> {
  if (!SLUG_PATTERN.test(input.slug)) {
    throw new Error(`Invalid account slug "${input.slug}": use lowercase letters, digits and dashes (1–64 characters)`);
  }
  const { row, planChanged } = await db.transaction(async (tx) => {
    await tx
      .insert(accounts)
      .values({ slug: input.slug, name: input.name ?? input.slug, plan: input.plan ?? env().DEFAULT_PLAN })
      .onConflictDoNothing({ target: accounts.slug });
    const [row] = await tx.select().from(accounts).where(eq(accounts.slug, input.slug)).for("update");
    if (input.plan && row!.plan !== input.plan) {
      const [updated] = await tx.update(accounts).set({ plan: input.plan }).where(eq(accounts.id, row!.id)).returning();
      return { row: updated!, planChanged: true };
    }
    return { row: row!, planChanged: false };
  });
  // Keys verified before the change carry the old plan: this process must look them up again.
  if (planChanged) forgetVerifiedKeys({ accountId: row.id });
  return row;
}

/**
 * Deletes accounts and everything they own. Foreign keys cascade to the rest; the events log has no key to its account
 * (lib/db/schema/events.ts), so its rows are deleted first, in the same transaction. Keys this process verified for
 * the accounts stop working at once.
 */
export async function deleteAccounts(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction(async (tx) => {
    // A user who also belongs to other workspaces keeps their login: their last-used workspace moves to the first of
    // those (users.account_id cascades). Users of no other workspace go with the account.
    const elsewhere = (userId: typeof users.id) =>
      tx
        .select({ accountId: memberships.accountId })
        .from(memberships)
        .where(and(eq(memberships.userId, userId), notInArray(memberships.accountId, [...ids])))
        .orderBy(asc(memberships.createdAt))
        .limit(1);
    await tx
      .update(users)
      .set({ accountId: sql`(${elsewhere(users.id)})` })
      .where(and(inArray(users.accountId, [...ids]), sql`exists (${elsewhere(users.id)})`));
    await tx.delete(events).where(inArray(events.accountId, [...ids]));
    await tx.delete(accounts).where(inArray(accounts.id, [...ids]));
  });
  for (const accountId of ids) forgetVerifiedKeys({ accountId });
}

/**
 * Deletes ctx's account and all its data, once the workspace's name has been typed as it is (trimmed) to confirm.
 * Its memberships go with it, so no one's session reaches it any more; users who belonged to no other workspace are
 * deleted with it.
 */
export async function deleteWorkspace({ ctx, input }: { ctx: Ctx; input: DeleteWorkspaceInput }): Promise<void> {
  const account = await getAccount(ctx.db, ctx.account.id);
  if (!account) throw notFound("Account", ctx.account.id);
  if (input.name !== account.name.trim()) {
    throw new ApiError("invalid_request", "Invalid body: name: must be the workspace's name, exactly as shown");
  }
  await deleteAccounts(ctx.db, [account.id]);
}

/** Renames ctx's account (the workspace name shown in the dashboard); the slug does not change. */
export async function renameAccount({ ctx, input }: { ctx: Ctx; input: UpdateAccountInput }): Promise<AccountRow> {
  return withTransaction(ctx, async (tx) => {
    const [before] = await tx.tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, ctx.account.id)).for("update");
    const [row] = await tx.tx.update(accounts).set({ name: input.name }).where(eq(accounts.id, ctx.account.id)).returning();
    if (!row || !before) throw notFound("Account", ctx.account.id);
    await audit(tx, { action: "account.updated", objectType: "account", objectId: row.id, before, after: { name: row.name } });
    return row;
  });
}

/** The members of ctx's account with their roles, in the order they joined. */
export async function listAccountMembers({ ctx }: { ctx: Ctx }): Promise<AccountMember[]> {
  return exec(ctx)
    .select({ id: users.id, email: users.email, name: users.name, role: memberships.role, createdAt: memberships.createdAt, lastSignInAt: users.lastSignInAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, ctx.account.id))
    .orderBy(asc(memberships.createdAt), asc(users.id));
}
