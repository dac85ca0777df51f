"use server";
// Server actions of the dashboard's share-links panel: the signed-in user's session, the API's schemas and verbs.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction, type ActionResult } from "@/lib/dashboard/action";
import { CreateShareLinkInput, type ShareLink } from "./schemas";
import { createShareLink, revokeShareLink } from "./share-links";

const RevokeInput = z.strictObject({ id: z.uuid({ error: "must be a share link id (UUID)" }) });

/** Creates a link to one of the account's trackables, with the same validation as POST /api/v1/share-links. */
export async function createShareLinkAction(input: unknown): Promise<ActionResult<ShareLink>> {
  return dashboardAction(CreateShareLinkInput, input, async ({ input, session }) => {
    const link = await createShareLink({ ctx: session.ctx, input });
    revalidatePath(`/trackables/${link.trackableId}`);
    return link;
  }, { permission: "shareLinks.manage" });
}

/** Revokes one of the account's links; revoking one that is already revoked is an error (code "conflict"). */
export async function revokeShareLinkAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return dashboardAction(RevokeInput, input, async ({ input, session }) => {
    await revokeShareLink({ ctx: session.ctx, id: input.id.toLowerCase() });
    revalidatePath("/trackables", "layout");
    return { id: input.id };
  }, { permission: "shareLinks.manage" });
}
