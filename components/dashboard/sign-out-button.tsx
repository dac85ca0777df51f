"use client";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui";

export function SignOutButton({ compact = false }: { compact?: boolean }) {
  return (
    <Button variant="ghost" size="sm" onClick={() => signOut({ callbackUrl: "/sign-in" })} aria-label={compact ? "Sign out" : undefined}>
      Sign out
    </Button>
  );
}
