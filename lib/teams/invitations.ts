import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { audit, writeAudit } from "@/lib/audit/audit";
import { userActor } from "@/lib/audit/users";
import { env } from "@/lib/config/env";
import { withTransaction, type Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { accounts, invitations, memberships, users, type AccountRow, type InvitationRow, type UserRow } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/http/errors";
import { log } from "@/lib/log/logger";
import type { Mailer } from "@/lib/mail/mailer";
import type { InviteMemberInput, PendingInvitation } from "./schemas";

/** An invitation link works for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/** The page an invitation link opens. */
export const invitationLink = (token: string, appUrl = env().APP_URL) => `${appUrl.replace(/\/+$/, "")}/invitations/${token}`;

/** The invitation mail: who invites to which workspace with which role, the link and how long it works. */
export function invitationMail(input: { link: string; workspace: string; inviter: string; role: string }) {
  const text =
    `${input.inviter} invites you to the Fenceline workspace "${input.workspace}" as ${input.role}.\n\n` +
    `Join here (the link works once, for 7 days):\n${input.link}\n\n` +
    `If you do not expect this, ignore this mail.`;
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const html =
    `<p>${esc(input.inviter)} invites you to the Fenceline workspace “${esc(input.workspace)}” as ${esc(input.role)}.</p>` +
    `<p><a href="${esc(input.link)}">Join the workspace</a> (the link works once, for 7 days).</p>` +
    `<p>If you do not expect this, ignore this mail.</p>`;
  return { subject: `Join “${input.workspace}” on Fenceline`, text, html };
}

const serialize = (row: InvitationRow): PendingInvitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

/**
 * Invites an email to ctx's workspace with a role: a single-use link valid 7 days. The token (256 random bits) is
 * returned here once and only its SHA-256 is stored; with a mailer the link is also mailed (after the commit, its
 * failure logged, never undoing the invitation). An address that already belongs to the workspace is a conflict.
 */
export async function createInvitation({
  ctx,
  inviter,
  input,
  mailer,
  now = new Date(),
}: {
  ctx: Ctx;
  inviter: Pick<UserRow, "id" | "email" | "name">;
  input: InviteMemberInput;
  mailer?: Mailer | null;
  now?: Date;
}): Promise<{ invitation: PendingInvitation; link: string; mailed: Promise<boolean> }> {
  const token = randomBytes(32).toString("base64url");
  const { row, workspace } = await withTransaction(ctx, async (tx) => {
    const [member] = await tx.tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.accountId, ctx.account.id), eq(users.email, input.email)))
      .limit(1);
    if (member) throw new ApiError("conflict", `Invalid body: email: ${input.email} already belongs to this workspace`);
    const [row] = await tx.tx
      .insert(invitations)
      .values({
        accountId: ctx.account.id,
        email: input.email,
        role: input.role,
        tokenHash: digest(token),
        invitedBy: inviter.id,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        createdAt: now,
      })
      .returning();
    await audit(tx, { action: "invitation.created", objectType: "invitation", objectId: row!.id, after: { email: row!.email, role: row!.role } });
    const [workspace] = await tx.tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, ctx.account.id));
    return { row: row!, workspace: workspace!.name };
  });
  const link = invitationLink(token);
  const mailed = mailer
    ? mailer
        .send({ to: [row.email], ...invitationMail({ link, workspace, inviter: inviter.name ?? inviter.email, role: row.role }) })
        .then(
          () => true,
          (err: unknown) => {
            log.error("[teams] invitation mail failed:", err);
            return false;
          },
        )
    : Promise.resolve(false);
  return { invitation: serialize(row), link, mailed };
}

/** ctx's pending invitations (neither accepted, revoked nor expired), oldest first. */
export async function listInvitations({ ctx, now = new Date() }: { ctx: Ctx; now?: Date }): Promise<PendingInvitation[]> {
  const rows = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.accountId, ctx.account.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return rows.map(serialize);
}

/** Withdraws a pending invitation of ctx's workspace: its link stops working at once. */
export async function revokeInvitation({ ctx, id }: { ctx: Ctx; id: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.id, id), eq(invitations.accountId, ctx.account.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning();
    if (!row) throw notFound("Invitation", id);
    await audit(tx, { action: "invitation.revoked", objectType: "invitation", objectId: row.id, before: { email: row.email, role: row.role } });
  });
}

export type InvitationStatus = "valid" | "expired" | "used" | "revoked";

/** What an invitation link's page shows: the invitation, its workspace and whether it can still be used; null for an unknown token. */
export async function lookUpInvitation(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ invitation: InvitationRow; account: AccountRow; status: InvitationStatus } | null> {
  const [row] = await db
    .select({ invitation: invitations, account: accounts })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .where(eq(invitations.tokenHash, digest(token)))
    .limit(1);
  if (!row) return null;
  const { invitation } = row;
  const status: InvitationStatus = invitation.acceptedAt ? "used" : invitation.revokedAt ? "revoked" : invitation.expiresAt <= now ? "expired" : "valid";
  return { ...row, status };
}

export class InvitationUnusableError extends Error {
  constructor(readonly reason: "unknown" | "expired" | "used" | "revoked" | "other_email" | "member") {
    super(
      {
        unknown: "This invitation link is not valid. Ask for a new one.",
        expired: "This invitation has expired. Ask an admin of the workspace for a new one.",
        used: "This invitation was already used.",
        revoked: "This invitation was withdrawn. Ask an admin of the workspace for a new one.",
        other_email: "This invitation is for another email address. Sign in with the address it was sent to.",
        member: "You already belong to this workspace.",
      }[reason],
    );
  }
}

/**
 * Joins the user to the invitation's workspace with its role, once: the link is spent in the same transaction that
 * adds the membership (a second use, even concurrent, finds it spent). The signed-in user's email must be the invited
 * one. The join is audited in the workspace's log with the new member as actor.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  user: Pick<UserRow, "id" | "email" | "name">,
  { clientAddress = null, now = new Date() }: { clientAddress?: string | null; now?: Date } = {},
): Promise<{ accountId: string }> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select().from(invitations).where(eq(invitations.tokenHash, digest(token))).for("update").limit(1);
    if (!found) throw new InvitationUnusableError("unknown");
    if (found.acceptedAt) throw new InvitationUnusableError("used");
    if (found.revokedAt) throw new InvitationUnusableError("revoked");
    if (found.expiresAt <= now) throw new InvitationUnusableError("expired");
    if (found.email !== user.email) throw new InvitationUnusableError("other_email");
    const [joined] = await tx
      .insert(memberships)
      .values({ accountId: found.accountId, userId: user.id, role: found.role, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!joined) throw new InvitationUnusableError("member");
    await tx.update(invitations).set({ acceptedAt: now }).where(eq(invitations.id, found.id));
    // The workspace just joined becomes the one the dashboard opens.
    await tx.update(users).set({ accountId: found.accountId }).where(eq(users.id, user.id));
    await writeAudit(
      tx,
      { accountId: found.accountId, actor: userActor(user), clientAddress },
      { action: "member.added", objectType: "member", objectId: user.id, after: { email: user.email, role: found.role, invitationId: found.id } },
    );
    return { accountId: found.accountId };
  });
}
