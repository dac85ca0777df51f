"use server";
// Members and invitations (the account page), joining (the invitation page) and the workspace switcher.
import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { eq } from "drizzle-orm";
import { dashboardAction } from "@/lib/dashboard/action";
import { users } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { mailer } from "@/lib/mail/mailer";
import { acceptInvitation, createInvitation, InvitationUnusableError, revokeInvitation } from "./invitations";
import { changeRole, removeMember, transferOwnership } from "./members";
import { findWorkspace } from "./memberships";
import { ChangeRoleInput, CreateWorkspaceInput, InvitationIdInput, InvitationTokenInput, InviteMemberInput, MemberInput, SwitchWorkspaceInput } from "./schemas";
import { WORKSPACE_COOKIE } from "./workspace-cookie";
import { createWorkspace } from "./workspaces";

async function chooseWorkspace(accountId: string) {
  (await cookies()).set(WORKSPACE_COOKIE, accountId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 * 60 * 24 * 365 });
  // Every page shows the workspace: its name in the layout, its data below.
  revalidatePath("/", "layout");
}

/** Invites an email with a role; the link is in this result only (and in the mail when the server sends mail). */
export async function inviteMemberAction(input: unknown) {
  return dashboardAction(InviteMemberInput, input, async ({ input, session }) => {
    const { invitation, link, mailed } = await createInvitation({ ctx: session.ctx, inviter: session.user, input, mailer: mailer() });
    revalidatePath("/account");
    return { invitation, link, mailed: await mailed };
  }, { permission: "members.manage", labels: { email: "Email", role: "Role" } });
}

export async function revokeInvitationAction(input: unknown) {
  return dashboardAction(InvitationIdInput, input, async ({ input, session }) => {
    await revokeInvitation({ ctx: session.ctx, id: input.id });
    revalidatePath("/account");
    return { id: input.id };
  }, { permission: "members.manage" });
}

export async function changeRoleAction(input: unknown) {
  return dashboardAction(ChangeRoleInput, input, async ({ input, session }) => {
    const row = await changeRole({ ctx: session.ctx, input });
    revalidatePath("/account");
    return { userId: row.userId, role: row.role };
  }, { permission: "members.manage" });
}

/** Removes a member; their very next request no longer reaches this workspace. */
export async function removeMemberAction(input: unknown) {
  return dashboardAction(MemberInput, input, async ({ input, session }) => {
    if (input.userId === session.user.id) throw new ApiError("invalid_request", "Invalid body: userId: you cannot remove yourself");
    await removeMember({ ctx: session.ctx, userId: input.userId });
    revalidatePath("/account");
    return { userId: input.userId };
  }, { permission: "members.manage" });
}

/** The owner hands the workspace to another member and becomes an admin. */
export async function transferOwnershipAction(input: unknown) {
  return dashboardAction(MemberInput, input, async ({ input, session }) => {
    await transferOwnership({ ctx: session.ctx, ownerId: session.user.id, userId: input.userId });
    revalidatePath("/", "layout");
    return { userId: input.userId };
  }, { permission: "ownership.transfer" });
}

/** The invitation page's "Join": the signed-in user joins the invitation's workspace, which this browser then shows. */
export async function acceptInvitationAction(input: unknown) {
  return dashboardAction(InvitationTokenInput, input, async ({ input, session }) => {
    try {
      const { accountId } = await acceptInvitation(session.ctx.db, input.token, session.user, { clientAddress: session.ctx.clientAddress });
      await chooseWorkspace(accountId);
      return { accountId };
    } catch (err) {
      if (err instanceof InvitationUnusableError) throw new ApiError("conflict", err.message);
      throw err;
    }
  }, { permission: "profile.manage" });
}

/** The switcher: this browser shows another of the user's workspaces (checked against their memberships). */
export async function switchWorkspaceAction(input: unknown) {
  return dashboardAction(SwitchWorkspaceInput, input, async ({ input, session }) => {
    const found = await findWorkspace(session.ctx.db, session.user.id, input.accountId);
    if (!found) throw new ApiError("not_found", "Not found: you do not belong to that workspace");
    await session.ctx.db.update(users).set({ accountId: input.accountId }).where(eq(users.id, session.user.id));
    await chooseWorkspace(input.accountId);
    return { accountId: input.accountId };
  }, { permission: "profile.manage" });
}

/** "Create another workspace": the user owns it, and this browser shows it. */
export async function createWorkspaceAction(input: unknown) {
  return dashboardAction(CreateWorkspaceInput, input, async ({ input, session }) => {
    const account = await session.ctx.db.transaction((tx) => createWorkspace(tx, session.user, input, { clientAddress: session.ctx.clientAddress }));
    await chooseWorkspace(account.id);
    return { accountId: account.id };
  }, { permission: "profile.manage", labels: { name: "Workspace name" } });
}
