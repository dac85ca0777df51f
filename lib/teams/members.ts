import { and, asc, eq, ne } from "drizzle-orm";
import { audit } from "@/lib/audit/audit";
import { withTransaction, type Ctx } from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { memberships, users, type MembershipRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { publishNotice } from "@/lib/stream/bus";
import type { ChangeRoleInput } from "./schemas";
import { createWorkspace } from "./workspaces";

/** The membership of a user in ctx's workspace, locked for the change; 404 when they do not belong to it. */
async function lockedMember(tx: Tx, ctx: Ctx, userId: string): Promise<MembershipRow> {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.accountId, ctx.account.id), eq(memberships.userId, userId)))
    .for("update")
    .limit(1);
  if (!row) throw notFound("Member", userId);
  return row;
}

const ownerRefusal = (what: string) =>
  new ApiError("conflict", `The owner cannot be ${what}: the owner first transfers ownership to another member`);

/** Gives a member another role (admin, member or viewer); the owner's role only moves by a transfer. */
export async function changeRole({ ctx, input }: { ctx: Ctx; input: ChangeRoleInput }): Promise<MembershipRow> {
  return withTransaction(ctx, async (tx) => {
    const before = await lockedMember(tx.tx, ctx, input.userId);
    if (before.role === "owner") throw ownerRefusal("re-roled");
    const [row] = await tx.tx
      .update(memberships)
      .set({ role: input.role })
      .where(and(eq(memberships.accountId, ctx.account.id), eq(memberships.userId, input.userId)))
      .returning();
    await audit(tx, { action: "member.roleChanged", objectType: "member", objectId: input.userId, before: { role: before.role }, after: { role: row!.role } });
    return row!;
  });
}

/**
 * Removes a member from ctx's workspace: their next request (page, action, stream) no longer reaches it, since every
 * session reads its membership. The owner cannot be removed. A user left with no workspace gets an empty one of their
 * own, so they can still sign in; otherwise the dashboard opens their first other workspace.
 */
export async function removeMember({ ctx, userId }: { ctx: Ctx; userId: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const before = await lockedMember(tx.tx, ctx, userId);
    if (before.role === "owner") throw ownerRefusal("removed");
    await tx.tx.delete(memberships).where(and(eq(memberships.accountId, ctx.account.id), eq(memberships.userId, userId)));
    const [user] = await tx.tx.select().from(users).where(eq(users.id, userId)).limit(1);
    const [other] = await tx.tx
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), ne(memberships.accountId, ctx.account.id)))
      .orderBy(asc(memberships.createdAt))
      .limit(1);
    if (other) {
      if (user!.accountId === ctx.account.id) await tx.tx.update(users).set({ accountId: other.accountId }).where(eq(users.id, userId));
    } else {
      const name = user!.name ? `${user!.name}'s workspace` : `${user!.email.split("@")[0]}'s workspace`;
      await createWorkspace(tx.tx, user!, { name });
    }
    await audit(tx, { action: "member.removed", objectType: "member", objectId: userId, before: { email: user!.email, role: before.role } });
  });
  // Their live pages' streams of this workspace end now, not at their next request.
  publishNotice(ctx.account.id, "member", null, { userId });
}

/** Makes another member the owner; the current owner (ctx's actor) becomes an admin. */
export async function transferOwnership({ ctx, ownerId, userId }: { ctx: Ctx; ownerId: string; userId: string }): Promise<void> {
  if (ownerId === userId) throw new ApiError("invalid_request", "Invalid body: userId: you already own this workspace");
  await withTransaction(ctx, async (tx) => {
    const owner = await lockedMember(tx.tx, ctx, ownerId);
    if (owner.role !== "owner") throw new ApiError("forbidden", "Only the owner can transfer ownership");
    const target = await lockedMember(tx.tx, ctx, userId);
    // Demote first: the partial unique index allows one owner at a time.
    await tx.tx.update(memberships).set({ role: "admin" }).where(and(eq(memberships.accountId, ctx.account.id), eq(memberships.userId, ownerId)));
    await tx.tx.update(memberships).set({ role: "owner" }).where(and(eq(memberships.accountId, ctx.account.id), eq(memberships.userId, userId)));
    await audit(tx, { action: "member.roleChanged", objectType: "member", objectId: ownerId, before: { role: "owner" }, after: { role: "admin" } });
    await audit(tx, { action: "ownership.transferred", objectType: "member", objectId: userId, before: { role: target.role }, after: { role: "owner" } });
  });
}
