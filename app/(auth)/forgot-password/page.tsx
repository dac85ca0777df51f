import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { mailConfigured } from "@/lib/mail/mailer";

export const metadata: Metadata = { title: "Reset your password" };

export default function ForgotPasswordPage() {
  // Without outgoing mail the operator prints reset links instead (npm run user:reset-password).
  if (!mailConfigured()) notFound();
  return <ForgotPasswordForm />;
}
