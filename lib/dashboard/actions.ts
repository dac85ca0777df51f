"use server";
import { cookies } from "next/headers";
import { FIRST_STEPS_COOKIE } from "./first-steps-cookie";
import { firstSteps } from "@/lib/dashboard/first-steps";
import { requireSignedIn } from "@/lib/auth/session";

/** Hides the first-steps checklist for this workspace in this browser, once every step is done. */
export async function dismissFirstStepsAction(): Promise<{ ok: boolean }> {
  const { ctx } = await requireSignedIn();
  const steps = await firstSteps({ ctx });
  if (!steps.every((s) => s.done)) return { ok: false };
  (await cookies()).set(FIRST_STEPS_COOKIE, ctx.account.id, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60 * 60 * 24 * 365 * 5,
  });
  return { ok: true };
}
