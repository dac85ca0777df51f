"use server";
// Server actions of the trackable page's "Connect a device" panel: the signed-in user's session, the API's schemas and verbs.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction, type ActionResult } from "@/lib/dashboard/action";
import { CreateDeviceTokenInput, type CreatedDeviceToken } from "./schemas";
import { createDeviceToken, revokeDeviceToken } from "./tokens";

const TrackableId = z.uuid({ error: "must be a trackable id (UUID)" }).transform((s) => s.toLowerCase());
const CreateInput = CreateDeviceTokenInput.extend({ trackableId: TrackableId });
const RevokeInput = z.strictObject({ trackableId: TrackableId, id: z.uuid({ error: "must be a device token id (UUID)" }) });

/** Creates a token for one of the account's trackables; its plaintext is in this result only. */
export async function createDeviceTokenAction(input: unknown): Promise<ActionResult<CreatedDeviceToken>> {
  return dashboardAction(CreateInput, input, async ({ input: { trackableId, ...rest }, session }) => {
    const created = await createDeviceToken({ ctx: session.ctx, trackableId, input: rest });
    revalidatePath(`/trackables/${trackableId}`);
    return created;
  }, { permission: "deviceTokens.manage" });
}

/** Revokes a token of one of the account's trackables, with effect on its next request. */
export async function revokeDeviceTokenAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return dashboardAction(RevokeInput, input, async ({ input, session }) => {
    await revokeDeviceToken({ ctx: session.ctx, trackableId: input.trackableId, id: input.id.toLowerCase() });
    revalidatePath(`/trackables/${input.trackableId}`);
    return { id: input.id };
  }, { permission: "deviceTokens.manage" });
}
