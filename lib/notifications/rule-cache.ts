import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { accounts, notificationChannels, notificationRules, type NotificationRuleRow } from "@/lib/db/schema";

// An account's enabled notification rules and channels held in this process's memory for matching, keyed by the
// account's notifications_version: every change to a rule or a channel bumps that counter in the same transaction
// (bumpNotificationsVersion), and matching reads it in the recording transaction before using the cache, so every
// server sees an edit in the first events recorded after it commits — as the geofence cache (lib/geofences/fence-cache.ts).

export interface AccountRules {
  version: number;
  /** The enabled rules, oldest first (when rules share a channel, the oldest one sends the event). */
  rules: NotificationRuleRow[];
  /** The enabled channels' ids. */
  channels: ReadonlySet<string>;
}

/** Accounts kept at most; the least recently loaded goes first. */
const MAX_ACCOUNTS = 10_000;

const globalForRules = globalThis as unknown as { __fencelineNotificationRules?: Map<string, AccountRules> };
const cache = (globalForRules.__fencelineNotificationRules ??= new Map());

/**
 * The account's enabled rules and channels: the version is read in the caller's transaction (one primary-key read),
 * unless the caller read it there already (`known`: an evaluation round reads it with the account's other columns);
 * from memory when this process loaded that version before, otherwise loaded with two queries and kept. What is
 * loaded is never older than the version it is kept under (it is read after it).
 */
export async function accountRules(db: Executor, accountId: string, known?: number): Promise<AccountRules> {
  const version = known ?? (await db.select({ version: accounts.notificationsVersion }).from(accounts).where(eq(accounts.id, accountId)))[0]?.version ?? 0;
  const hit = cache.get(accountId);
  if (hit && hit.version === version) return hit;
  const [rules, channels] = await Promise.all([
    db
      .select()
      .from(notificationRules)
      .where(and(eq(notificationRules.accountId, accountId), eq(notificationRules.enabled, true)))
      .orderBy(asc(notificationRules.id)),
    db
      .select({ id: notificationChannels.id })
      .from(notificationChannels)
      .where(and(eq(notificationChannels.accountId, accountId), eq(notificationChannels.enabled, true))),
  ]);
  const loaded: AccountRules = { version, rules, channels: new Set(channels.map((c) => c.id)) };
  cache.delete(accountId);
  cache.set(accountId, loaded);
  if (cache.size > MAX_ACCOUNTS) cache.delete(cache.keys().next().value!);
  return loaded;
}

/** Marks the account's rules and channels as changed: call in the transaction of every insert, update or delete of one. */
export async function bumpNotificationsVersion(db: Executor, accountId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ notificationsVersion: sql`${accounts.notificationsVersion} + 1` })
    .where(eq(accounts.id, accountId));
}
