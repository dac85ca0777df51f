import type { Metadata } from "next";
import { AcceptInvitation } from "@/components/teams/accept-invitation";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { ButtonLink } from "@/components/ui";
import { getSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { lookUpInvitation } from "@/lib/teams/invitations";
import { ROLE_LABELS } from "@/lib/teams/roles";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

const UNUSABLE = {
  expired: ["This invitation has expired", "Invitation links work for 7 days. Ask an admin of the workspace for a new one."],
  used: ["This invitation was already used", "Each link works once. If it was not you who used it, tell an admin of the workspace."],
  revoked: ["This invitation was withdrawn", "An admin of the workspace revoked it. Ask them for a new one if you still need access."],
} as const;

// An invitation link: who invites to what, then join (signed in with the invited address), or sign in / sign up
// first and come back here. Opening the page changes nothing; the "Join" button does.
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await lookUpInvitation(await getDb(), token);
  if (!found) return <Message title="This invitation link is not valid" text="Check that the whole link was copied, or ask for a new one." />;
  if (found.status !== "valid") return <Message title={UNUSABLE[found.status][0]} text={UNUSABLE[found.status][1]} />;
  const { invitation, account } = found;
  const here = `/invitations/${token}`;
  const session = await getSession();
  const intro = (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Join “{account.name}”</h1>
      <p className="mt-2 text-sm text-slate-600">
        You are invited to this Fenceline workspace as <strong>{ROLE_LABELS[invitation.role]}</strong>, with{" "}
        <span className="break-all">{invitation.email}</span>.
      </p>
    </>
  );
  if (!session) {
    return (
      <div>
        {intro}
        <div className="mt-6 space-y-3">
          <ButtonLink href={`/sign-up?callbackUrl=${encodeURIComponent(here)}&email=${encodeURIComponent(invitation.email)}`} className="w-full">
            Create an account to join
          </ButtonLink>
          <ButtonLink href={`/sign-in?callbackUrl=${encodeURIComponent(here)}`} variant="secondary" className="w-full">
            Sign in to join
          </ButtonLink>
        </div>
      </div>
    );
  }
  if (session.user.email !== invitation.email) {
    return (
      <div>
        {intro}
        <p className="mt-4 text-sm text-slate-700">
          You are signed in as <span className="font-medium break-all">{session.user.email}</span>. Sign out, then open this link
          again and sign in with the invited address.
        </p>
        <div className="mt-6">
          <SignOutButton />
        </div>
      </div>
    );
  }
  return (
    <div>
      {intro}
      <div className="mt-6">
        <AcceptInvitation token={token} />
      </div>
    </div>
  );
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      <ButtonLink href="/" variant="secondary" className="mt-6 w-full">
        Go to Fenceline
      </ButtonLink>
    </div>
  );
}
