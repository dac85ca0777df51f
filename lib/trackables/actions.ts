"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { Id } from "@/lib/schemas/common";
import { CreateTrackableInput, UpdateTrackableInput } from "@/lib/trackables/schemas";
import { createTrackable, deleteTrackable, updateTrackable } from "@/lib/trackables/trackables";

export async function createTrackableAction(input: { name: string; type: string }) {
  return dashboardAction(CreateTrackableInput, input, async ({ input, session }) => {
    const trackable = await createTrackable({ ctx: session.ctx, input });
    revalidatePath("/trackables");
    return { id: trackable.id };
  }, { permission: "trackables.write" });
}

const UpdateAction = UpdateTrackableInput.extend({ id: Id });

export async function updateTrackableAction(input: { id: string; name: string; type: string }) {
  return dashboardAction(UpdateAction, input, async ({ input: { id, ...patch }, session }) => {
    await updateTrackable({ ctx: session.ctx, id, input: patch });
    revalidatePath("/trackables");
    revalidatePath(`/trackables/${id}`);
    return { id };
  }, { permission: "trackables.write" });
}

export async function deleteTrackableAction(input: { id: string }) {
  return dashboardAction(z.strictObject({ id: Id }), input, async ({ input: { id }, session }) => {
    await deleteTrackable({ ctx: session.ctx, id });
    revalidatePath("/trackables");
    return { id };
  }, { permission: "trackables.write" });
}

const TrackingAction = z.strictObject({ id: Id, tracking: z.enum(["active", "paused"]) });

/** The trackable page's pause/resume toggle: while paused, every post for it is acknowledged and discarded. */
export async function setTrackingAction(input: { id: string; tracking: "active" | "paused" }) {
  return dashboardAction(TrackingAction, input, async ({ input: { id, tracking }, session }) => {
    await updateTrackable({ ctx: session.ctx, id, input: { tracking } });
    revalidatePath(`/trackables/${id}`);
    return { id, tracking };
  }, { permission: "trackables.write" });
}
