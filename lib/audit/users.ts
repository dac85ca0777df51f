import type { Actor } from "@/lib/context";
import type { Executor } from "@/lib/db/client";
import type { UserRow } from "@/lib/db/schema";
import { writeAudit } from "./audit";

type Named = Pick<UserRow, "id" | "accountId" | "email" | "name">;

/** A dashboard user as an actor: named by their name, or their email when they have none. */
export const userActor = (user: Pick<UserRow, "id" | "email" | "name">): Actor => ({ type: "user", id: user.id, name: user.name ?? user.email });

/**
 * What a user does to their own sign-in (signing in, a password change, two-factor on or off): recorded in their
 * workspace's log with the user as actor and object. `changes` are given as before/after views, redacted as any.
 */
export function auditUser(
  executor: Executor,
  user: Named,
  clientAddress: string | null | undefined,
  entry: { action: string; before?: Record<string, unknown>; after?: Record<string, unknown> },
): Promise<void> {
  return writeAudit(
    executor,
    { accountId: user.accountId, actor: userActor(user), clientAddress: clientAddress ?? null },
    { action: entry.action, objectType: "user", objectId: user.id, before: entry.before ?? null, after: entry.after ?? null },
  );
}
