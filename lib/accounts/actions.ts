"use server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { deleteWorkspace, renameAccount } from "@/lib/accounts/accounts";
import { DeleteWorkspaceInput, UpdateAccountInput } from "@/lib/accounts/schemas";
import { ChangePasswordInput } from "@/lib/auth/schemas";
import { PasswordThrottledError } from "@/lib/auth/throttle";
import { changePassword, WrongPasswordError } from "@/lib/auth/users";
import { dashboardAction } from "@/lib/dashboard/action";
import { clientIp } from "@/lib/http/client-ip";
import { ApiError } from "@/lib/http/errors";

export async function renameWorkspaceAction(input: { name: string }) {
  return dashboardAction(UpdateAccountInput, input, async ({ input, session }) => {
    const account = await renameAccount({ ctx: session.ctx, input });
    // The sidebar shows the workspace name on every page.
    revalidatePath("/", "layout");
    return { name: account.name };
  }, { permission: "settings.manage", labels: { name: "Workspace name" } });
}

/** Deletes the workspace; the page then signs out (the session no longer names a user) and goes to /sign-in. */
export async function deleteWorkspaceAction(input: { name: string }) {
  return dashboardAction(DeleteWorkspaceInput, input, async ({ input, session }) => {
    await deleteWorkspace({ ctx: session.ctx, input });
    return { deleted: true };
  }, { permission: "workspace.delete", labels: { name: "Workspace name" } });
}

export async function changePasswordAction(input: { currentPassword: string; newPassword: string }) {
  return dashboardAction(ChangePasswordInput, input, async ({ input, session }) => {
    try {
      await changePassword(session.ctx.db, session.user.id, input, { clientIp: clientIp(await headers()) });
    } catch (err) {
      if (err instanceof WrongPasswordError) throw new ApiError("invalid_request", `Invalid body: currentPassword: ${err.message}`);
      if (err instanceof PasswordThrottledError) throw new ApiError("rate_limit_exceeded", `currentPassword: ${err.message}`);
      throw err;
    }
    return { email: session.user.email };
  }, { permission: "profile.manage" });
}
