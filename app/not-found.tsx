import type { Metadata } from "next";
import { Logo } from "@/components/brand";
import { ButtonLink } from "@/components/ui";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main id="main" tabIndex={-1} className="focus:outline-none flex min-h-screen flex-col items-center justify-center px-6 text-center">
      <Logo />
      <h1 className="mt-8 text-2xl font-semibold text-slate-900">This page does not exist</h1>
      <p className="mt-2 text-sm text-slate-600">The address may be mistyped, or what it pointed to has been deleted.</p>
      <ButtonLink href="/" className="mt-6">
        Go to Fenceline
      </ButtonLink>
    </main>
  );
}
