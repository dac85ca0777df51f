import { auditUser } from "@/lib/audit/users";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { accounts, memberships, users, type AccountRow, type UserRow } from "@/lib/db/schema";
import { dummyHash, hashPassword, verifyPassword } from "./password";
import type { SignUpInput } from "./schemas";
import { throttlePasswordAttempt } from "./throttle";

export class EmailTakenError extends Error {
  constructor() {
    super("An account with this email already exists");
  }
}

/** A workspace slug from the email's local part plus a random suffix ("ada-lovelace-3kq9x"). */
export function slugFor(email: string): string {
  const base = email
    .split("@")[0]!
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  const suffix = randomBytes(4).toString("hex");
  return base ? `${base}-${suffix}` : `workspace-${suffix}`;
}

async function createUserWithAccount(
  db: Db,
  input: { email: string; name: string | null; passwordHash: string | null },
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
    if (existing) throw new EmailTakenError();
    const workspace = input.name ? `${input.name}'s workspace` : `${input.email.split("@")[0]}'s workspace`;
    const [account] = await tx
      .insert(accounts)
      .values({ slug: slugFor(input.email), name: workspace, plan: env().DEFAULT_PLAN })
      .returning();
    const [user] = await tx
      .insert(users)
      .values({ accountId: account!.id, email: input.email, name: input.name, passwordHash: input.passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    // A concurrent sign-up with the same address won the race: the unique index decided.
    if (!user) throw new EmailTakenError();
    await tx.insert(memberships).values({ accountId: account!.id, userId: user.id, role: "owner" });
    return user;
  });
}

/** Sign-up: a new user who owns a new account (workspace) on DEFAULT_PLAN. */
export async function signUp(db: Db, input: SignUpInput): Promise<UserRow> {
  return createUserWithAccount(db, {
    email: input.email,
    name: input.name || null,
    passwordHash: await hashPassword(input.password),
  });
}

/** The user for an email and password, or null; an unknown email takes as long as a wrong password. */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!user?.passwordHash) {
    await verifyPassword(password, await dummyHash());
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  return user;
}

/** OAuth sign-in: the user with this (provider-verified) email, created with a new account on first sign-in. */
export async function findOrCreateOAuthUser(db: Db, email: string, name: string | null): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (user) {
    await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
    return user;
  }
  try {
    return await createUserWithAccount(db, { email, name, passwordHash: null });
  } catch (err) {
    if (!(err instanceof EmailTakenError)) throw err;
    const [raced] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return raced!;
  }
}

export async function getUserWithAccount(db: Db, userId: string): Promise<{ user: UserRow; account: AccountRow } | null> {
  const [row] = await db
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** Ends every session of the user (sign-out, password change): the sessions' version no longer matches. */
export async function endSessions(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
  return row?.sessionVersion ?? 0;
}

export class WrongPasswordError extends Error {
  constructor() {
    super("The current password is not correct");
  }
}

/**
 * Changes a user's password after checking the current one, and ends every session of the user: the caller signs the
 * current browser in again with the new password. The check spends the sign-in budgets of the user's email from
 * `clientIp` (lib/auth/throttle.ts): a stolen session cannot guess the password faster than the sign-in page can.
 */
export async function changePassword(
  db: Db,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  opts: { clientIp: string },
): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new WrongPasswordError();
  await throttlePasswordAttempt(user.email, opts.clientIp, "password");
  if (!user.passwordHash || !(await verifyPassword(input.currentPassword, user.passwordHash))) throw new WrongPasswordError();
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, userId));
    await auditUser(tx, user, opts.clientIp, { action: "user.passwordChanged", before: { password: user.passwordHash }, after: { password: passwordHash } });
  });
}
