"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/lib/dashboard/action";
import { assertEnterprise } from "@/lib/dashboard/plan";
import { redeliver } from "@/lib/webhooks/delivery-history";

/** Sends a delivery's payload again as a new delivery; the page then opens the new one. */
export async function redeliverAction(id: string) {
  const result = await dashboardAction(z.object({ id: z.uuid() }), { id }, async ({ input, session }) => {
    assertEnterprise(session.ctx);
    const created = await redeliver({ ctx: session.ctx, id: input.id });
    return { id: created.id };
  }, { permission: "webhooks.manage" });
  if (result.ok) revalidatePath("/deliveries");
  return result;
}
