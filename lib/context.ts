import type { Db, Executor, Tx } from "@/lib/db/client";

export type Plan = "free" | "enterprise";

export interface AccountRef {
  id: string;
  plan: Plan;
}

/** Who is acting: a dashboard user or an API key (id and name as they are at the time, for the audit log). */
export interface Actor {
  type: "user" | "apiKey";
  id: string;
  name: string;
}

/**
 * What every lib verb receives: the tenant it acts for, the database (or the caller's open transaction), and who is
 * acting from which address. Without an actor (operator scripts, background jobs) a change is not audited.
 */
export interface Ctx {
  account: AccountRef;
  db: Db;
  tx?: Tx;
  actor?: Actor;
  clientAddress?: string;
}

/** The executor a verb should use: the caller's transaction when there is one. */
export const exec = (ctx: Ctx): Executor => ctx.tx ?? ctx.db;

/** Runs fn in a transaction, reusing the caller's when one is open (verbs compose without nesting transactions). */
export async function withTransaction<T>(ctx: Ctx, fn: (ctx: Ctx & { tx: Tx }) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn({ ...ctx, tx: ctx.tx });
  return ctx.db.transaction((tx) => fn({ ...ctx, tx }));
}
