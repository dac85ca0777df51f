import { Logo } from "@/components/brand";
import { NavLinks } from "@/components/dashboard/nav-links";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { Badge } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import Link from "next/link";

// Every page under (dashboard) needs a session; pages and server actions also check it themselves (requireSession),
// since a layout does not guard server actions.
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { user, account } = await requireSession();
  return (
    <div className="min-h-screen lg:flex">
      <aside className="border-b border-slate-200 bg-white lg:sticky lg:top-0 lg:flex lg:h-screen lg:w-60 lg:shrink-0 lg:flex-col lg:border-r lg:border-b-0">
        <div className="flex items-center justify-between px-4 py-3 lg:px-5 lg:py-5">
          <Link href="/trackables" aria-label="Fenceline dashboard">
            <Logo />
          </Link>
          <div className="lg:hidden">
            <SignOutButton compact />
          </div>
        </div>
        <NavLinks />
        <div className="mt-auto hidden border-t border-slate-200 px-5 py-4 lg:block">
          <p className="truncate text-sm font-medium text-slate-900" title={account.name}>
            {account.name}
          </p>
          <p className="truncate text-xs text-slate-500" title={user.email}>
            {user.email}
          </p>
          <div className="mt-2 flex items-center justify-between">
            <Badge color={account.plan === "enterprise" ? "blue" : "gray"} data-testid="plan-badge">
              {account.plan === "enterprise" ? "Enterprise" : "Free"}
            </Badge>
            <SignOutButton />
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">{children}</main>
    </div>
  );
}
