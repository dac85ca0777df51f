import { auditUser } from "@/lib/audit/users";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { passwordResetTokens, users } from "@/lib/db/schema";
import type { Mailer } from "@/lib/mail/mailer";
import { notFound } from "@/lib/http/errors";
import { getLimiter } from "@/lib/rate-limit";
import { z } from "zod";
import { hashPassword } from "./password";
import { Email } from "./schemas";
import { log } from "@/lib/log/logger";

/** A reset link works for an hour, once. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

// Requests for a link, in the sign-in limits' style: per client address (then refused, saying so), and per email
// address from every client together (then silently not mailed, so the answer never tells whether it exists).
export const RESET_WINDOW_S = 3600;
export const RESET_PER_IP = 10;
export const RESET_PER_EMAIL = 3;
export const resetLimits = {
  ip: () => getLimiter("reset-ip", RESET_PER_IP, RESET_WINDOW_S),
  email: () => getLimiter("reset-email", RESET_PER_EMAIL, RESET_WINDOW_S),
};

export class InvalidResetLinkError extends Error {
  constructor() {
    super("This reset link has expired or was already used. Ask for a new one.");
  }
}

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/** The page a reset link opens. */
export const resetLink = (token: string, appUrl = env().APP_URL) => `${appUrl.replace(/\/+$/, "")}/reset-password?token=${token}`;

/**
 * A new single-use reset link for the user with this email, valid RESET_TOKEN_TTL_MS from `now`; null when no user
 * has it. The token (256 random bits) is in the link only; the database keeps its SHA-256.
 */
export async function createResetLink(db: Db, email: string, { now = new Date() }: { now?: Date } = {}): Promise<string | null> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!user) return null;
  const token = randomBytes(32).toString("base64url");
  await db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: digest(token),
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    createdAt: now,
  });
  return resetLink(token);
}

export const ResetLinkInput = z.strictObject({ email: Email });

/** For the operator (`npm run user:reset-password`): a reset link for the user, or 404 when no user has the email. */
export async function resetLinkFor(db: Db, email: string): Promise<{ link: string; expiresInSeconds: number }> {
  const link = await createResetLink(db, email);
  if (!link) throw notFound("User with email", email);
  return { link, expiresInSeconds: RESET_TOKEN_TTL_MS / 1000 };
}

/** The reset mail: the link, how long it works, and what to do when it was not asked for. */
export function resetMail(link: string) {
  const text =
    `Someone (hopefully you) asked to reset the password of your Fenceline account.\n\n` +
    `Set a new password here (the link works once, for one hour):\n${link}\n\n` +
    `If you did not ask for this, ignore this mail: your password stays as it is.`;
  const html =
    `<p>Someone (hopefully you) asked to reset the password of your Fenceline account.</p>` +
    `<p><a href="${link}">Set a new password</a> (the link works once, for one hour).</p>` +
    `<p>If you did not ask for this, ignore this mail: your password stays as it is.</p>`;
  return { subject: "Reset your Fenceline password", text, html };
}

/**
 * "Forgot password?": mails a reset link when a user has this email and the email's own limit allows, and answers
 * the same either way. The mail is sent after the answer (its time would tell a known address from an unknown one);
 * the returned promise is the sending, for tests and logs.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  { mailer, now = new Date() }: { mailer: Mailer; now?: Date },
): Promise<{ sending: Promise<void> }> {
  if (!(await resetLimits.email().limit(email)).success) return { sending: Promise.resolve() };
  const sending = (async () => {
    const link = await createResetLink(db, email, { now });
    if (link) await mailer.send({ to: [email], ...resetMail(link) });
  })().catch((err: unknown) => log.error("[password-reset] the reset mail was not sent:", err instanceof Error ? err.message : String(err)));
  return { sending };
}

/** Whether a reset link's token may still set a password (the page shows the form, or says the link is spent). */
export async function resetTokenUsable(db: Db, token: string, { now = new Date() }: { now?: Date } = {}): Promise<boolean> {
  const [row] = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, digest(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .limit(1);
  return Boolean(row);
}

/**
 * Sets a new password with a reset link's token: once, before it expires. Every link of the user is retired with
 * it, and every session of the user ends (the session version moves on). Returns the user's email.
 */
export async function resetPassword(
  db: Db,
  token: string,
  password: string,
  { now = new Date(), clientAddress = null }: { now?: Date; clientAddress?: string | null } = {},
): Promise<string> {
  if (!(await resetTokenUsable(db, token, { now }))) throw new InvalidResetLinkError();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // The conditional update decides between two uses of one link at once: only one finds it unused.
    const [spent] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.tokenHash, digest(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
      .returning({ userId: passwordResetTokens.userId });
    if (!spent) throw new InvalidResetLinkError();
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, spent.userId), isNull(passwordResetTokens.usedAt)));
    const [user] = await tx
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, spent.userId))
      .returning();
    await auditUser(tx, user!, clientAddress, { action: "user.passwordReset", after: { password: passwordHash } });
    return user!.email;
  });
}
