import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { DEFAULT_AFTER_SIGN_IN, sameOriginPath } from "@/lib/auth/callback-url";
import { getSession } from "@/lib/auth/session";
import { env } from "@/lib/config/env";

export const metadata: Metadata = { title: "Create your account" };

// `callbackUrl` and `email` come from an invitation's page: the new user signs up with the invited address, then
// goes back to the invitation to join.
export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; email?: string }> }) {
  const { callbackUrl, email } = await searchParams;
  const next = sameOriginPath(callbackUrl, env().APP_URL) ?? DEFAULT_AFTER_SIGN_IN;
  if (await getSession()) redirect(next);
  return <SignUpForm callbackUrl={next} email={typeof email === "string" ? email.slice(0, 254) : undefined} />;
}
