import { z } from "zod";
import { Email } from "@/lib/auth/schemas";

/** The roles an admin can give: ownership only moves by a transfer. */
export const GrantableRole = z.enum(["admin", "member", "viewer"], { error: "must be admin, member or viewer" });
export type GrantableRole = z.infer<typeof GrantableRole>;

const UserId = z.uuid({ error: "must be a user id (UUID)" }).transform((s) => s.toLowerCase());

export const InviteMemberInput = z.strictObject({ email: Email, role: GrantableRole });
export type InviteMemberInput = z.infer<typeof InviteMemberInput>;

export const ChangeRoleInput = z.strictObject({ userId: UserId, role: GrantableRole });
export type ChangeRoleInput = z.infer<typeof ChangeRoleInput>;

export const MemberInput = z.strictObject({ userId: UserId });
export type MemberInput = z.infer<typeof MemberInput>;

export const InvitationIdInput = z.strictObject({ id: z.uuid({ error: "must be an invitation id (UUID)" }).transform((s) => s.toLowerCase()) });

export const InvitationTokenInput = z.strictObject({ token: z.string().min(1).max(200) });

export const CreateWorkspaceInput = z.strictObject({
  name: z.string().trim().min(1, "must not be blank").max(100, "must be at most 100 characters"),
});
export type CreateWorkspaceInput = z.infer<typeof CreateWorkspaceInput>;

export const SwitchWorkspaceInput = z.strictObject({ accountId: z.uuid({ error: "must be a workspace id (UUID)" }).transform((s) => s.toLowerCase()) });

/** A pending invitation as the members page lists it (never the token). */
export interface PendingInvitation {
  id: string;
  email: string;
  role: GrantableRole;
  expiresAt: Date;
  createdAt: Date;
}
