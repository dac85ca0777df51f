import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { Alert } from "@/components/ui";
import { resetTokenUsable } from "@/lib/auth/password-reset";
import { getDb } from "@/lib/db/client";
import { mailConfigured } from "@/lib/mail/mailer";

export const metadata: Metadata = { title: "Set a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  if (token && (await resetTokenUsable(await getDb(), token))) return <ResetPasswordForm token={token} />;
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">This link no longer works</h1>
      <div className="mt-6 space-y-4">
        <Alert>Reset links work once, for one hour. This one has expired, was already used, or is incomplete.</Alert>
        {mailConfigured() ? (
          <Link href="/forgot-password" className="block text-center font-medium text-indigo-600 hover:text-indigo-500">
            Ask for a new link
          </Link>
        ) : null}
      </div>
    </div>
  );
}
