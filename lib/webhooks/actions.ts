"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { assertEnterprise } from "@/lib/dashboard/plan";
import { recoverFailed } from "@/lib/webhooks/delivery-history";
import { rotateSecret } from "@/lib/webhooks/rotation";
import { CreateWebhookInput, EndpointTestInput, RecoverInput, RotateSecretInput, UpdateWebhookInput } from "@/lib/webhooks/schemas";
import { sendTest } from "@/lib/webhooks/test-webhook";
import { createWebhook, deleteWebhook, updateWebhook } from "@/lib/webhooks/webhooks";

// Account webhook endpoints: the same schemas and verbs as /api/v1/webhooks, enterprise only like the API.
const Id = z.uuid();
const invalidId = { ok: false as const, error: "Unknown webhook endpoint.", code: "not_found", fieldErrors: {} };

export async function createWebhookAction(input: unknown) {
  const result = await dashboardAction(CreateWebhookInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return createWebhook({ ctx: session.ctx, input });
  }, { permission: "webhooks.manage" });
  if (result.ok) revalidatePath("/webhooks");
  return result;
}

export async function updateWebhookAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(UpdateWebhookInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return updateWebhook({ ctx: session.ctx, id, input });
  }, { permission: "webhooks.manage" });
  if (result.ok) revalidatePath("/webhooks");
  return result;
}

export async function deleteWebhookAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(z.object({}), {}, ({ session }) => {
    assertEnterprise(session.ctx);
    return deleteWebhook({ ctx: session.ctx, id });
  }, { permission: "webhooks.manage" });
  if (result.ok) revalidatePath("/webhooks");
  return result;
}

/** One sample delivery to the endpoint (no retries); the answer carries the recorded delivery either way. */
export async function sendEndpointTestAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(EndpointTestInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return sendTest({ ctx: session.ctx, target: { webhookId: id }, event: input.event });
  }, { permission: "webhooks.manage" });
}

/** A new secret, shown once by the page; the current one keeps signing until `previousSecretExpiresAt`. */
export async function rotateWebhookSecretAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  // No revalidation: the page keeps showing the new secret until the user leaves it.
  return dashboardAction(RotateSecretInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return rotateSecret({ ctx: session.ctx, target: { webhookId: id }, input });
  }, { permission: "webhooks.manage" });
}

/** Sends again every failed delivery to the endpoint since a time. */
export async function recoverWebhookAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(RecoverInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return recoverFailed({ ctx: session.ctx, target: { webhookId: id }, since: input.since });
  }, { permission: "webhooks.manage" });
}
