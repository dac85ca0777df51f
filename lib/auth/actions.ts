"use server";
// Server actions of the sign-up, "Forgot password?" and reset-link pages (the reset verbs are those of
// `npm run user:reset-password`).
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { signUpLimiter } from "@/lib/auth/options";
import { EmailTakenError, signUp } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";
import { fieldErrorsFromIssues } from "@/lib/dashboard/field-messages";
import { clientIp } from "@/lib/http/client-ip";
import { mailer } from "@/lib/mail/mailer";
import { InvalidResetLinkError, requestPasswordReset, resetLimits, resetPassword } from "./password-reset";
import { ForgotPasswordInput, ResetPasswordInput, SignUpInput } from "./schemas";
import { requireSignedIn } from "./session";
import { PasswordThrottledError, throttlePasswordAttempt } from "./throttle";
import { beginTwoFactor, disableTwoFactor, enableTwoFactor, enrolment } from "./two-factor";

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

export type PasswordResetResult = { ok: true } | { ok: false; error?: string; fieldErrors?: Record<string, string> };

/** Mails a reset link when the address belongs to a user; the answer is the same when it does not. */
export async function forgotPasswordAction(input: { email: string }): Promise<PasswordResetResult> {
  const parsed = ForgotPasswordInput.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsFromIssues(parsed.error.issues, (issue) => [String(issue.path[0])]) };
  const m = mailer();
  if (!m) return { ok: false, error: "This server cannot send mail. Ask its operator to run npm run user:reset-password for you." };
  const verdict = await resetLimits.ip().limit(clientIp(await headers()));
  if (!verdict.success) return { ok: false, error: "Too many reset requests from your network. Try again later." };
  await requestPasswordReset(await getDb(), parsed.data.email, { mailer: m });
  return { ok: true };
}

/** Sets a new password with a reset link's token; every session of the user ends. */
export async function resetPasswordAction(input: { token: string; password: string }): Promise<PasswordResetResult> {
  const parsed = ResetPasswordInput.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsFromIssues(parsed.error.issues, (issue) => [String(issue.path[0])]) };
  try {
    await resetPassword(await getDb(), parsed.data.token, parsed.data.password, { clientAddress: clientIp(await headers()) });
    return { ok: true };
  } catch (err) {
    if (err instanceof InvalidResetLinkError) return { ok: false, error: err.message };
    throw err;
  }
}

// Two-factor sign-in settings (the account page). Every code typed here spends the sign-in budgets of the user's
// email, so a session in the wrong hands guesses codes no faster than the sign-in page allows.

export type TwoFactorSetup = { ok: true; secret: string; url: string; qr: string } | { ok: false; error: string };

export async function beginTwoFactorAction(): Promise<TwoFactorSetup> {
  const { user, ctx } = await requireSignedIn();
  const secret = await beginTwoFactor(ctx.db, user.id);
  if (!secret) return { ok: false, error: "Two-factor sign-in is already on." };
  return { ok: true, ...(await enrolment(secret, user.email)) };
}

export type TwoFactorResult = { ok: true; recoveryCodes?: string[] } | { ok: false; error: string };

async function throttledCode(email: string): Promise<string | null> {
  try {
    await throttlePasswordAttempt(email, clientIp(await headers()), "code");
    return null;
  } catch (err) {
    if (err instanceof PasswordThrottledError) return err.message;
    throw err;
  }
}

export async function enableTwoFactorAction(input: { code: string }): Promise<TwoFactorResult> {
  const { user, ctx } = await requireSignedIn();
  const refused = await throttledCode(user.email);
  if (refused) return { ok: false, error: refused };
  const codes = await enableTwoFactor(ctx.db, user.id, String(input.code ?? ""), Date.now(), ctx.clientAddress);
  if (!codes) return { ok: false, error: "That code is not valid. Enter the current code from your authenticator app." };
  revalidatePath("/account");
  return { ok: true, recoveryCodes: codes };
}

export async function disableTwoFactorAction(input: { code: string }): Promise<TwoFactorResult> {
  const { user, ctx } = await requireSignedIn();
  const refused = await throttledCode(user.email);
  if (refused) return { ok: false, error: refused };
  if (!(await disableTwoFactor(ctx.db, user.id, String(input.code ?? ""), Date.now(), ctx.clientAddress))) {
    return { ok: false, error: "That code is not valid. Enter a current code or an unused recovery code." };
  }
  revalidatePath("/account");
  return { ok: true };
}
