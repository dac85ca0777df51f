import { Badge, Card, ScrollTable, Time } from "@/components/ui";
import type { AccountMember } from "@/lib/accounts/schemas";
import { ROLE_LABELS, type Role } from "@/lib/teams/roles";
import { MemberControls } from "./member-controls";

/**
 * The workspace's members with their roles. Admins and the owner get each row's controls (role, remove; the owner
 * also "make owner"); the owner's own row never has any: ownership only moves by a transfer.
 */
export function MembersCard({ members, you, role }: { members: AccountMember[]; you: string; role: Role }) {
  const manage = role === "owner" || role === "admin";
  return (
    <Card aria-labelledby="members-heading" className="overflow-hidden">
      <div className="px-4 pt-4 sm:px-5">
        <h2 id="members-heading" className="text-base font-semibold text-slate-900">
          Members
        </h2>
        <p className="mt-1 text-sm text-slate-600">People who sign in to this workspace, and what each may do.</p>
      </div>
      <ScrollTable label="Members" className="mt-3">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-labelledby="members-heading">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-2 sm:px-5">Member</th>
              <th scope="col" className="px-4 py-2">Role</th>
              <th scope="col" className="hidden px-4 py-2 sm:table-cell">Joined</th>
              <th scope="col" className="px-4 py-2">Last sign-in</th>
              {manage ? <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {members.map((m) => (
              <tr key={m.id} data-testid="member-row" data-member-id={m.id}>
                <td className="px-4 py-3 sm:px-5">
                  <span className="block font-medium text-slate-900">
                    {m.name ?? m.email}
                    {m.id === you ? (
                      <span className="ml-2 align-middle">
                        <Badge color="blue">You</Badge>
                      </span>
                    ) : null}
                  </span>
                  {m.name ? <span className="block break-all text-slate-500">{m.email}</span> : null}
                </td>
                <td className="px-4 py-3 whitespace-nowrap" data-testid="member-role">
                  {ROLE_LABELS[m.role]}
                </td>
                <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 sm:table-cell">
                  <Time value={m.createdAt} dateOnly />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                  <Time value={m.lastSignInAt} relative fallback="Never" />
                </td>
                {manage ? (
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    {m.role === "owner" || m.id === you ? null : (
                      <MemberControls member={{ id: m.id, label: m.name ?? m.email, role: m.role }} canTransfer={role === "owner"} />
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </Card>
  );
}
