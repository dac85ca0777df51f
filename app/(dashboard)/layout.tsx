import { Logo } from "@/components/brand";
import { NavLinks } from "@/components/dashboard/nav-links";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { WorkspaceSwitcher } from "@/components/teams/workspace-switcher";
import { Badge, MAIN_ID } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import { listWorkspaces } from "@/lib/teams/memberships";
import { ROLE_LABELS } from "@/lib/teams/roles";
import Link from "next/link";

// Every page under (dashboard) needs a session; pages and server actions also check it themselves (requireSession),
// since a layout does not guard server actions.
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { user, account, role, ctx } = await requireSession({ permission: "workspace.read" });
  const workspaces = (await listWorkspaces(ctx.db, user.id)).map((w) => ({ id: w.account.id, name: w.account.name, role: ROLE_LABELS[w.role] }));
  // At the foot of the sidebar on a desk, at the foot of the menu on a phone.
  const who = (
    <>
      <p className="truncate text-sm font-medium text-slate-900" title={account.name}>
        {account.name}
      </p>
      <WorkspaceSwitcher current={account.id} workspaces={workspaces} />
      <p className="mt-2 truncate text-xs text-slate-600" title={user.email}>
        {user.email}
      </p>
      <div className="mt-2 flex items-center justify-between">
        <Badge color={account.plan === "enterprise" ? "blue" : "gray"} data-testid="plan-badge">
          {account.plan === "enterprise" ? "Enterprise" : "Free"}
        </Badge>
        <SignOutButton />
      </div>
    </>
  );
  return (
    <div className="min-h-screen lg:flex">
      <aside className="relative flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 lg:sticky lg:top-0 lg:h-screen lg:w-60 lg:shrink-0 lg:flex-col lg:items-stretch lg:justify-start lg:border-r lg:border-b-0 lg:p-0">
        <div className="lg:px-5 lg:py-5">
          <Link href="/trackables" aria-label="Fenceline dashboard" className="inline-block rounded-md">
            <Logo />
          </Link>
        </div>
        <NavLinks role={role} footer={who} />
      </aside>
      <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-10 lg:py-8">
        {children}
      </main>
    </div>
  );
}
