"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { createChannel, deleteChannel, testChannel, updateChannel } from "./notification-channels";
import { createRule, deleteRule, updateRule } from "./rules";
import { CreateNotificationRuleInput, UpdateNotificationRuleInput } from "./rule-schemas";
import { CreateNotificationChannelInput, UpdateNotificationChannelInput } from "./schemas";

// The Notifications page's actions: the same schemas and verbs as /api/v1/notification-channels and -rules.
const Id = z.uuid();
const invalidId = { ok: false as const, error: "Unknown channel or rule.", code: "not_found", fieldErrors: {} };
const done = <R extends { ok: boolean }>(result: R) => {
  if (result.ok) revalidatePath("/notifications");
  return result;
};

export async function createChannelAction(input: unknown) {
  return done(await dashboardAction(CreateNotificationChannelInput, input, ({ input, session }) => createChannel({ ctx: session.ctx, input }), { permission: "notifications.manage" }));
}

export async function updateChannelAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return done(await dashboardAction(UpdateNotificationChannelInput, input, ({ input, session }) => updateChannel({ ctx: session.ctx, id, input }), { permission: "notifications.manage" }));
}

export async function deleteChannelAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  return done(await dashboardAction(z.object({}), {}, ({ session }) => deleteChannel({ ctx: session.ctx, id }), { permission: "notifications.manage" }));
}

/** One test message now, no retries: says whether the service accepted it. */
export async function testChannelAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  return dashboardAction(z.object({}), {}, ({ session }) => testChannel({ ctx: session.ctx, id }), { permission: "notifications.manage" });
}

export async function createRuleAction(input: unknown) {
  return done(await dashboardAction(CreateNotificationRuleInput, input, ({ input, session }) => createRule({ ctx: session.ctx, input }), { permission: "notifications.manage" }));
}

export async function updateRuleAction(id: string, input: unknown) {
  if (!Id.safeParse(id).success) return invalidId;
  return done(await dashboardAction(UpdateNotificationRuleInput, input, ({ input, session }) => updateRule({ ctx: session.ctx, id, input }), { permission: "notifications.manage" }));
}

export async function deleteRuleAction(id: string) {
  if (!Id.safeParse(id).success) return invalidId;
  return done(await dashboardAction(z.object({}), {}, ({ session }) => deleteRule({ ctx: session.ctx, id }), { permission: "notifications.manage" }));
}
