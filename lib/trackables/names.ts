import { and, eq, inArray } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { trackables } from "@/lib/db/schema";

/** The names of these trackables of the account (ids of deleted or foreign trackables are left out). */
export async function trackableNames({ ctx, ids }: { ctx: Ctx; ids: readonly string[] }): Promise<Record<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return {};
  const rows = await exec(ctx)
    .select({ id: trackables.id, name: trackables.name })
    .from(trackables)
    .where(and(eq(trackables.accountId, ctx.account.id), inArray(trackables.id, unique)));
  return Object.fromEntries(rows.map((r) => [r.id, r.name]));
}
