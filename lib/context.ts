import type { Db, Executor, Tx } from "@/lib/db/client";

export type Plan = "free" | "enterprise";

export interface AccountRef {
  id: string;
  plan: Plan;
}

/** What every lib verb receives: the tenant it acts for and the database (or the caller's open transaction). */
export interface Ctx {
  account: AccountRef;
  db: Db;
  tx?: Tx;
}

/** The executor a verb should use: the caller's transaction when there is one. */
export const exec = (ctx: Ctx): Executor => ctx.tx ?? ctx.db;

/** Runs fn in a transaction, reusing the caller's when one is open (verbs compose without nesting transactions). */
export async function withTransaction<T>(ctx: Ctx, fn: (ctx: Ctx & { tx: Tx }) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn({ ...ctx, tx: ctx.tx });
  return ctx.db.transaction((tx) => fn({ ...ctx, tx }));
}
