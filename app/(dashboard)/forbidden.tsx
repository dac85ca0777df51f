import { ButtonLink, Card } from "@/components/ui";
import { getSession } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/teams/roles";

// A page the user's role in this workspace may not open (requireSession's permission): every such page is for admins.
export default async function DashboardForbidden() {
  const session = await getSession();
  return (
    <Card className="mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-lg font-semibold text-slate-900">You need the admin role</h1>
      <p className="mt-2 text-sm text-slate-600">
        This page is for the admins and the owner of {session ? `“${session.account.name}”` : "this workspace"}.
        {session ? ` Your role here is ${ROLE_LABELS[session.role]}; an admin can change it on the Account page.` : ""}
      </p>
      <ButtonLink href="/trackables" variant="secondary" className="mt-6">
        Back to trackables
      </ButtonLink>
    </Card>
  );
}
