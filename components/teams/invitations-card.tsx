import { Card, Time } from "@/components/ui";
import type { PendingInvitation } from "@/lib/teams/schemas";
import { ROLE_LABELS } from "@/lib/teams/roles";
import { InviteForm } from "./invite-form";
import { RevokeInvitationButton } from "./revoke-invitation-button";

/** For admins and the owner: invite someone by email with a role, and the invitations not yet used. */
export function InvitationsCard({ pending, mailConfigured }: { pending: PendingInvitation[]; mailConfigured: boolean }) {
  return (
    <Card aria-labelledby="invite-heading" className="p-5">
      <h2 id="invite-heading" className="text-base font-semibold text-slate-900">
        Invite someone
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A link that works once, for 7 days{mailConfigured ? ", mailed to the address and shown here once" : ", shown here once: send it yourself"}.
        Admins manage members, keys, webhooks, notifications and settings; members manage trackables, geofences,
        device tokens, share links and privacy zones; viewers only look.
      </p>
      <div className="mt-3">
        <InviteForm />
      </div>
      {pending.length > 0 ? (
        <div className="mt-5">
          <h3 className="text-sm font-semibold text-slate-900">Pending invitations</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm" aria-label="Pending invitations">
            {pending.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="invitation-row">
                <span>
                  <span className="font-medium break-all text-slate-900">{i.email}</span>{" "}
                  <span className="text-slate-600">
                    as {ROLE_LABELS[i.role]}, until <Time value={i.expiresAt} dateOnly />
                  </span>
                </span>
                <RevokeInvitationButton id={i.id} email={i.email} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
