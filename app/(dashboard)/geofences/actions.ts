"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { assertEnterprise } from "@/lib/dashboard/plan";
import { createGeofence, deleteGeofence, updateGeofence } from "@/lib/geofences/geofences";
import { CreateGeofenceInput, UpdateGeofenceInput } from "@/lib/geofences/schemas";
import { TestWebhookInput } from "@/lib/webhooks/delivery-schemas";
import { sendTestWebhook } from "@/lib/webhooks/test-webhook";

// The geofence editor's writes: the same schemas and verbs as POST/PATCH/DELETE /api/v1/geofences.
const Id = z.uuid();
const invalidId = { ok: false as const, error: "Unknown geofence.", code: "not_found", fieldErrors: {} };

export async function createGeofenceAction(input: unknown) {
  const result = await dashboardAction(CreateGeofenceInput, input, ({ input, session }) => createGeofence({ ctx: session.ctx, input }));
  if (result.ok) revalidatePath("/geofences");
  return result;
}

export async function updateGeofenceAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(UpdateGeofenceInput, input, ({ input, session }) => updateGeofence({ ctx: session.ctx, id, input }));
  if (result.ok) revalidatePath("/geofences");
  return result;
}

export async function deleteGeofenceAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(z.object({}), {}, ({ session }) => deleteGeofence({ ctx: session.ctx, id }));
  if (result.ok) revalidatePath("/geofences");
  return result;
}

/** One test delivery to the geofence's saved webhook (no retries); the history then holds it, marked as a test. */
export async function sendTestWebhookAction(id: string, input: { eventType: "entry" | "exit" }) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(TestWebhookInput, input, async ({ input, session }) => {
    assertEnterprise(session.ctx);
    return sendTestWebhook({ ctx: session.ctx, geofenceId: id, eventType: input.eventType });
  });
  revalidatePath("/deliveries");
  return result;
}
