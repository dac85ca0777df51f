"use server";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { assertEnterprise } from "@/lib/dashboard/plan";
import { createGeofence, deleteGeofence, updateGeofence } from "@/lib/geofences/geofences";
import { listEvents } from "@/lib/events/events";
import { listOccupants } from "@/lib/geofences/occupancy";
import { CreateGeofenceInput, UpdateGeofenceInput } from "@/lib/geofences/schemas";
import { trackableNames } from "@/lib/trackables/names";
import { recoverFailed } from "@/lib/webhooks/delivery-history";
import { TestWebhookInput } from "@/lib/webhooks/delivery-schemas";
import { rotateSecret } from "@/lib/webhooks/rotation";
import { RecoverInput, RotateSecretInput } from "@/lib/webhooks/schemas";
import { sendTest } from "@/lib/webhooks/test-webhook";

// The geofence editor's writes: the same schemas and verbs as POST/PATCH/DELETE /api/v1/geofences. No revalidation:
// every page here is rendered per request, and the editor updates its own list from the answers.
const Id = z.uuid();
const invalidId = { ok: false as const, error: "Unknown geofence.", code: "not_found", fieldErrors: {} };

export async function createGeofenceAction(input: unknown) {
  return dashboardAction(CreateGeofenceInput, input, ({ input, session }) => createGeofence({ ctx: session.ctx, input }), { permission: "geofences.write" });
}

export async function updateGeofenceAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(UpdateGeofenceInput, input, ({ input, session }) => updateGeofence({ ctx: session.ctx, id, input }), { permission: "geofences.write" });
}

export async function deleteGeofenceAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(z.object({}), {}, ({ session }) => deleteGeofence({ ctx: session.ctx, id }), { permission: "geofences.write" });
}

/** One test delivery to the geofence's saved webhook (no retries); the history then holds it, marked as a test. */
export async function sendTestWebhookAction(id: string, input: { eventType: "entry" | "exit" }) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(TestWebhookInput, input, async ({ input, session }) => {
    assertEnterprise(session.ctx);
    return sendTest({ ctx: session.ctx, target: { geofenceId: id }, event: `geofence.${input.eventType}` });
  }, { permission: "webhooks.manage" });
}

/** A new secret for the geofence's webhook, shown once by the editor; the current one keeps signing for the overlap. */
export async function rotateGeofenceSecretAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(RotateSecretInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return rotateSecret({ ctx: session.ctx, target: { geofenceId: id }, input });
  }, { permission: "webhooks.manage" });
}

/** Sends again every failed delivery of the geofence's own webhook since a time. */
export async function recoverGeofenceAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(RecoverInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return recoverFailed({ ctx: session.ctx, target: { geofenceId: id }, since: input.since });
  }, { permission: "webhooks.manage" });
}

/**
 * What the geofence page shows beside the form: who is inside now (latest arrival first) and the fence's recent events
 * with the names of their trackables. The same verbs as GET /geofences/{id}/occupants and GET /events?geofenceId=.
 */
export async function geofenceActivityAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(z.object({}), {}, async ({ session }) => {
    const ctx = session.ctx;
    const occupants = await listOccupants({ ctx, geofenceId: id, query: { limit: 50 } });
    const events = await listEvents({ ctx, query: { geofenceId: id, limit: 20 } });
    const names = await trackableNames({ ctx, ids: events.data.flatMap((e) => (e.trackableId ? [e.trackableId] : [])) });
    return { occupants: occupants.data, moreOccupants: occupants.nextCursor !== null, events: events.data, trackableNames: names };
  }, { permission: "workspace.read" });
}
