"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { Id } from "@/lib/schemas/common";
import { createPrivacyZone, deletePrivacyZone, updatePrivacyZone } from "./privacy-zones";
import { CreatePrivacyZoneInput, UpdatePrivacyZoneInput } from "./schemas";

const LABELS = { name: "Name", latitude: "Latitude", longitude: "Longitude", radius: "Radius", mode: "Mode", trackableIds: "Trackables" };

export async function createPrivacyZoneAction(input: unknown) {
  return dashboardAction(
    CreatePrivacyZoneInput,
    input,
    async ({ input, session }) => {
      const zone = await createPrivacyZone({ ctx: session.ctx, input });
      revalidatePath("/privacy-zones");
      return { id: zone.id };
    },
    { permission: "privacyZones.write", labels: LABELS },
  );
}

const UpdateAction = UpdatePrivacyZoneInput.extend({ id: Id });

export async function updatePrivacyZoneAction(input: unknown) {
  return dashboardAction(
    UpdateAction,
    input,
    async ({ input: { id, ...patch }, session }) => {
      await updatePrivacyZone({ ctx: session.ctx, id, input: patch });
      revalidatePath("/privacy-zones");
      return { id };
    },
    { permission: "privacyZones.write", labels: LABELS },
  );
}

export async function deletePrivacyZoneAction(input: { id: string }) {
  return dashboardAction(z.strictObject({ id: Id }), input, async ({ input: { id }, session }) => {
    await deletePrivacyZone({ ctx: session.ctx, id });
    revalidatePath("/privacy-zones");
    return { id };
  }, { permission: "privacyZones.write" });
}
