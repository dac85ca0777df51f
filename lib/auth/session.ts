import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import type { Ctx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { clientIp } from "@/lib/http/client-ip";
import { userActor } from "@/lib/audit/users";
import type { AccountRow, UserRow } from "@/lib/db/schema";
import { REQUEST_PATH_HEADER, signInUrl } from "./callback-url";
import { authOptions } from "./options";
import { getUserWithAccount } from "./users";

export interface DashboardSession {
  user: UserRow;
  account: AccountRow;
  /** The lib context for the user's account: dashboard pages and actions call the same verbs as the API. */
  ctx: Ctx;
}

/**
 * The signed-in user with their account, or null: no session, the user no longer exists, or the session began before
 * the user's session version last moved (sign-out, password change). Once per request: the layout, the metadata and
 * the page all ask.
 */
export const getSession = cache(async (): Promise<DashboardSession | null> => {
  const session = (await getServerSession(authOptions())) as { uid?: string; sv?: number } | null;
  if (!session?.uid) return null;
  const db = await getDb();
  const found = await getUserWithAccount(db, session.uid);
  if (!found || found.user.sessionVersion !== (session.sv ?? 0)) return null;
  const actor = userActor(found.user);
  const clientAddress = clientIp(await headers());
  return { ...found, ctx: { account: { id: found.account.id, plan: found.account.plan }, db, actor, clientAddress } };
});

/**
 * For every dashboard page and server action: the session, or a redirect to /sign-in that names the page asked for
 * (proxy.ts puts its path in a request header), so the sign-in comes back to it.
 */
export async function requireSession(): Promise<DashboardSession> {
  const session = await getSession();
  if (!session) redirect(signInUrl((await headers()).get(REQUEST_PATH_HEADER)));
  return session;
}
