"use server";
import { headers } from "next/headers";
import { signUpLimiter } from "@/lib/auth/options";
import { SignUpInput } from "@/lib/auth/schemas";
import { EmailTakenError, signUp } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { fieldErrorsFromIssues } from "@/lib/dashboard/field-messages";
import { clientIp } from "@/lib/http/client-ip";

export type SignUpResult = { ok: true } | { ok: false; error?: string; fieldErrors?: Record<string, string> };


export async function signUpAction(input: { name?: string; email: string; password: string }): Promise<SignUpResult> {
  const parsed = SignUpInput.safeParse(input);
  if (!parsed.success) {
    return { ok: false, fieldErrors: fieldErrorsFromIssues(parsed.error.issues, (issue) => [String(issue.path[0])]) };
  }
  const verdict = await signUpLimiter().limit(clientIp(await headers()));
  if (!verdict.success) return { ok: false, error: "Too many sign-ups from your network. Try again later." };
  try {
    await signUp(await getDb(), parsed.data);
    return { ok: true };
  } catch (err) {
    if (err instanceof EmailTakenError) return { ok: false, fieldErrors: { email: "An account with this email already exists. Sign in instead." } };
    throw err;
  }
}
