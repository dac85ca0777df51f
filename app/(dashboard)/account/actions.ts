"use server";
import { revalidatePath } from "next/cache";
import { renameAccount } from "@/lib/accounts/accounts";
import { UpdateAccountInput } from "@/lib/accounts/schemas";
import { dashboardAction } from "@/lib/dashboard/action";

export async function renameWorkspaceAction(input: { name: string }) {
  return dashboardAction(UpdateAccountInput, input, async ({ input, session }) => {
    const account = await renameAccount({ ctx: session.ctx, input });
    // The sidebar shows the workspace name on every page.
    revalidatePath("/", "layout");
    return { name: account.name };
  });
}
