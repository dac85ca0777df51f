import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { DeleteWorkspaceForm } from "@/components/account/delete-workspace-form";
import { TwoFactorSettings } from "@/components/account/two-factor-settings";
import { WorkspaceNameForm } from "@/components/account/workspace-name-form";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { InvitationsCard } from "@/components/teams/invitations-card";
import { MembersCard } from "@/components/teams/members-card";
import { Badge, Card, PageHeader, cx } from "@/components/ui";
import { listAccountMembers } from "@/lib/accounts/accounts";
import { requireSession } from "@/lib/auth/session";
import { mailConfigured } from "@/lib/mail/mailer";
import { listInvitations } from "@/lib/teams/invitations";
import { can, ROLE_LABELS } from "@/lib/teams/roles";

export const metadata: Metadata = { title: "Account" };

// What each plan includes (api-contract.md: every webhook feature needs Enterprise).
const FEATURES: { label: string; free: boolean }[] = [
  { label: "Trackables, location history and the REST API", free: true },
  { label: "Geofences with entry/exit evaluation", free: true },
  { label: "Public share links for a trackable's live position", free: true },
  { label: "API keys and the dashboard", free: true },
  { label: "Geofence webhook notifications (signed, retried)", free: false },
  { label: "Account webhooks: location, battery and status events", free: false },
  { label: "Test webhooks, delivery history and redelivery", free: false },
];

export default async function AccountPage() {
  const { ctx, user, account, role } = await requireSession({ permission: "workspace.read" });
  const members = await listAccountMembers({ ctx });
  const enterprise = account.plan === "enterprise";
  return (
    <>
      <PageHeader title="Account" description="Your workspace, its plan and the people who sign in to it." />
      <div className="space-y-6">
        <Card aria-labelledby="workspace-heading" className="p-5">
          <h2 id="workspace-heading" className="text-base font-semibold text-slate-900">
            Workspace
          </h2>
          <div className="mt-3">
            {can(role, "settings.manage") ? (
              <WorkspaceNameForm name={account.name} />
            ) : (
              <p className="text-sm text-slate-900">
                {account.name} <span className="text-slate-600">· your role: {ROLE_LABELS[role]}</span>
              </p>
            )}
          </div>
          <p className="mt-3 text-xs text-slate-500">
            Workspace id <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-700" data-testid="account-slug">{account.slug}</code>.
            {can(role, "apiKeys.manage") ? (
              <>
                {" "}An API key for this workspace from the shell:{" "}
                <code className="rounded bg-slate-100 px-1 py-0.5 break-all text-slate-700" data-testid="apikey-command">
                  npm run --silent apikey:create -- --account {account.slug}
                </code>
                .
              </>
            ) : null}
          </p>
        </Card>

        <Card aria-labelledby="plan-heading" className="p-5">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id="plan-heading" className="text-base font-semibold text-slate-900">
              Plan
            </h2>
            <Badge color={enterprise ? "blue" : "gray"} data-testid="account-plan">
              {enterprise ? "Enterprise" : "Free"}
            </Badge>
          </div>
          <p className="mt-1 text-sm text-slate-600">
            {enterprise
              ? "Everything Fenceline does, webhooks included."
              : "Tracking, history, geofences and share links. Webhooks need the Enterprise plan."}
          </p>
          <ul className="mt-4 grid gap-2 text-sm sm:grid-cols-2" aria-label="What the plan includes">
            {FEATURES.map((f) => {
              const included = enterprise || f.free;
              return (
                <li key={f.label} className={cx("flex items-start gap-2", included ? "text-slate-800" : "text-slate-500")}>
                  <span aria-hidden className={cx("mt-0.5 font-bold", included ? "text-emerald-600" : "text-slate-300")}>
                    {included ? "✓" : "–"}
                  </span>
                  <span>
                    {f.label}
                    {f.free ? null : <span className="ml-1 text-xs text-slate-500">(Enterprise)</span>}
                    <span className="sr-only">{included ? ": included" : ": not included"}</span>
                  </span>
                </li>
              );
            })}
          </ul>
          {enterprise ? null : (
            <p className="mt-4 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset">
              The operator of this install moves a workspace to Enterprise with{" "}
              <code className="rounded bg-white px-1 py-0.5 text-xs break-all">
                npm run apikey:create -- --account {account.slug} --plan enterprise
              </code>
              .
            </p>
          )}
        </Card>

        <MembersCard members={members} you={user.id} role={role} />

        {can(role, "members.manage") ? <InvitationsCard pending={await listInvitations({ ctx })} mailConfigured={mailConfigured()} /> : null}

        {user.passwordHash ? (
          <Card aria-labelledby="password-heading" className="p-5">
            <h2 id="password-heading" className="text-base font-semibold text-slate-900">
              Password
            </h2>
            <p className="mt-1 text-sm text-slate-600">Changing it signs you out everywhere else.</p>
            <div className="mt-3">
              <ChangePasswordForm />
            </div>
          </Card>
        ) : null}

        {user.passwordHash ? (
          <Card aria-labelledby="two-factor-heading" className="p-5">
            <h2 id="two-factor-heading" className="text-base font-semibold text-slate-900">
              Two-factor sign-in
            </h2>
            <div className="mt-3">
              <TwoFactorSettings enabled={user.totpEnabledAt !== null} />
            </div>
          </Card>
        ) : null}

        <Card aria-labelledby="session-heading" className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="session-heading" className="text-base font-semibold text-slate-900">
              Signed in
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              as <span className="font-medium text-slate-900" data-testid="signed-in-email">{user.email}</span>
            </p>
          </div>
          <SignOutButton />
        </Card>

        {can(role, "workspace.delete") ? (
          <Card aria-labelledby="delete-workspace-heading" className="p-5 ring-red-200">
            <h2 id="delete-workspace-heading" className="text-base font-semibold text-red-700">
              Delete workspace
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Deletes this workspace and everything in it — trackables, location history, geofences, events, webhooks,
              share links, API keys, and the sign-in of every member who belongs to no other workspace — at once and for good. Export it first (
              <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">POST /api/v1/account/export</code>) to keep a copy.
            </p>
            <div className="mt-3">
              <DeleteWorkspaceForm name={account.name} />
            </div>
          </Card>
        ) : null}
      </div>
    </>
  );
}
