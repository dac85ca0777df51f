"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { assertEnterprise } from "@/lib/dashboard/plan";
import { CreateWebhookInput, UpdateWebhookInput } from "@/lib/webhooks/schemas";
import { createWebhook, deleteWebhook, updateWebhook } from "@/lib/webhooks/webhooks";

// Account webhook endpoints: the same schemas and verbs as /api/v1/webhooks, enterprise only like the API.
const Id = z.uuid();
const invalidId = { ok: false as const, error: "Unknown webhook endpoint.", code: "not_found", fieldErrors: {} };

export async function createWebhookAction(input: unknown) {
  const result = await dashboardAction(CreateWebhookInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return createWebhook({ ctx: session.ctx, input });
  });
  if (result.ok) revalidatePath("/webhooks");
  return result;
}

export async function updateWebhookAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(UpdateWebhookInput, input, ({ input, session }) => {
    assertEnterprise(session.ctx);
    return updateWebhook({ ctx: session.ctx, id, input });
  });
  if (result.ok) revalidatePath("/webhooks");
  return result;
}

export async function deleteWebhookAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  const result = await dashboardAction(z.object({}), {}, ({ session }) => {
    assertEnterprise(session.ctx);
    return deleteWebhook({ ctx: session.ctx, id });
  });
  if (result.ok) revalidatePath("/webhooks");
  return result;
}
