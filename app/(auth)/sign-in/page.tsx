import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { DEFAULT_AFTER_SIGN_IN, sameOriginPath } from "@/lib/auth/callback-url";
import { oauthProviders } from "@/lib/auth/options";
import { env } from "@/lib/config/env";
import { getSession } from "@/lib/auth/session";
import { mailConfigured } from "@/lib/mail/mailer";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  OAuthAccountNotLinked: "This email is already used by another sign-in method.",
  AccessDenied: "Sign-in was refused: your provider did not share a verified email address.",
  Callback: "The sign-in provider could not be reached. Try again.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string; callbackUrl?: string }> }) {
  const { error, callbackUrl } = await searchParams;
  // Only same-origin paths: a callback URL must never send the user to another origin.
  const next = sameOriginPath(callbackUrl, env().APP_URL) ?? DEFAULT_AFTER_SIGN_IN;
  if (await getSession()) redirect(next);
  return (
    <SignInForm
      providers={oauthProviders()}
      callbackUrl={next}
      initialError={error ? (ERRORS[error] ?? "Sign-in failed. Try again.") : null}
      canResetPassword={mailConfigured()}
    />
  );
}
