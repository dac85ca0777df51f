import type { Ctx } from "@/lib/context";
import { planRequired } from "@/lib/http/handler";

/** Webhook features need the enterprise plan: the same 403 plan_required the API answers, as a form error. */
export function assertEnterprise(ctx: Ctx): void {
  if (ctx.account.plan !== "enterprise") throw planRequired();
}

export const isEnterprise = (ctx: Ctx): boolean => ctx.account.plan === "enterprise";
