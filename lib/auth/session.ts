import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import type { Ctx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { clientIp } from "@/lib/http/client-ip";
import { userActor } from "@/lib/audit/users";
import { users, type AccountRow, type UserRow } from "@/lib/db/schema";
import { currentWorkspace } from "@/lib/teams/memberships";
import { can, type Permission, type Role } from "@/lib/teams/roles";
import { WORKSPACE_COOKIE } from "@/lib/teams/workspace-cookie";
import { REQUEST_PATH_HEADER, signInUrl } from "./callback-url";
import { authOptions } from "./options";

export interface DashboardSession {
  user: UserRow;
  /** The workspace this request acts in (chosen with the switcher), and the user's role in it. */
  account: AccountRow;
  role: Role;
  /** The lib context for that workspace: dashboard pages and actions call the same verbs as the API. */
  ctx: Ctx;
}

/**
 * The signed-in user in their current workspace, or null: no session, the user no longer exists, the session began
 * before the user's session version last moved (sign-out, password change), or the user belongs to no workspace. The
 * membership is read on every request, so a member removed from a workspace loses it at once. Once per request: the
 * layout, the metadata and the page all ask.
 */
export const getSession = cache(async (): Promise<DashboardSession | null> => {
  const session = (await getServerSession(authOptions())) as { uid?: string; sv?: number } | null;
  if (!session?.uid) return null;
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, session.uid)).limit(1);
  if (!user || user.sessionVersion !== (session.sv ?? 0)) return null;
  const workspace = await currentWorkspace(db, user, (await cookies()).get(WORKSPACE_COOKIE)?.value);
  if (!workspace) return null;
  const { account, role } = workspace;
  const actor = userActor(user);
  const clientAddress = clientIp(await headers());
  return { user, account, role, ctx: { account: { id: account.id, plan: account.plan }, db, actor, clientAddress } };
});

/**
 * For server actions (which check their permission themselves and answer with a form error): the session, or a
 * redirect to /sign-in that names the page asked for (proxy.ts puts its path in a request header), so the sign-in
 * comes back to it.
 */
export async function requireSignedIn(): Promise<DashboardSession> {
  const session = await getSession();
  if (!session) redirect(signInUrl((await headers()).get(REQUEST_PATH_HEADER)));
  return session;
}

/**
 * For every dashboard page: the session (or the redirect to /sign-in), and the page's permission. A role without it
 * gets 403 and app/forbidden.tsx, which names the role the user has and who can change it.
 */
export async function requireSession(opts: { permission: Permission }): Promise<DashboardSession> {
  const session = await requireSignedIn();
  if (!can(session.role, opts.permission)) forbidden();
  return session;
}
