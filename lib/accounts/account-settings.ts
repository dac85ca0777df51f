import { eq } from "drizzle-orm";
import { audit } from "@/lib/audit/audit";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { accounts, type AccountRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import type { Account, PatchAccountInput } from "./schemas";

export function serializeAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    plan: row.plan,
    retention: { locationDays: row.locationRetentionDays, eventDays: row.eventRetentionDays, deliveryDays: row.deliveryRetentionDays },
  };
}

/** GET /account: ctx's account with its retention settings. */
export async function getAccountSettings({ ctx }: { ctx: Ctx }): Promise<Account> {
  const [row] = await exec(ctx).select().from(accounts).where(eq(accounts.id, ctx.account.id)).limit(1);
  if (!row) throw notFound("Account", ctx.account.id);
  return serializeAccount(row);
}

/** PATCH /account: the name and the retention fields sent change; the others stay. */
export async function updateAccountSettings({ ctx, input }: { ctx: Ctx; input: PatchAccountInput }): Promise<Account> {
  const r = input.retention ?? {};
  const set = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(r.locationDays === undefined ? {} : { locationRetentionDays: r.locationDays }),
    ...(r.eventDays === undefined ? {} : { eventRetentionDays: r.eventDays }),
    ...(r.deliveryDays === undefined ? {} : { deliveryRetentionDays: r.deliveryDays }),
  };
  if (Object.keys(set).length === 0) return getAccountSettings({ ctx });
  return withTransaction(ctx, async (tx) => {
    const before = await getAccountSettings({ ctx: tx });
    const [row] = await tx.tx.update(accounts).set(set).where(eq(accounts.id, ctx.account.id)).returning();
    if (!row) throw notFound("Account", ctx.account.id);
    await audit(tx, { action: "account.updated", objectType: "account", objectId: row.id, before, after: serializeAccount(row) });
    return serializeAccount(row);
  });
}
