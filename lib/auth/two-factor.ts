import { auditUser } from "@/lib/audit/users";
import { randomBytes } from "node:crypto";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { sha256Hex } from "@/lib/credentials/verified-cache";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

// Two-factor sign-in for dashboard users: TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, what every authenticator app
// reads from an otpauth:// URL) and 10 single-use recovery codes, stored as SHA-256 hashes.

export const TOTP_PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Fenceline";

const totp = (secret: string, label = "") =>
  new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });

/** A new secret: 160 random bits in base32 (RFC 4226's recommended length). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The code an authenticator shows for `secret` at `now` (tests and the recovery of a clock drift question). */
export const totpCode = (secret: string, now = Date.now()): string => totp(secret).generate({ timestamp: now });

/**
 * The time step a code is valid for (the current one, or one either side for clock drift), or null. A step at or
 * before `lastStep` is refused: a code accepted once cannot be replayed.
 */
export function matchTotp(secret: string, code: string, lastStep: number | null, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret).validate({ token, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** Recovery codes as shown: 12 base32 characters (60 bits) in groups of four, "k3xq-7m2p-a9fd". */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  return Array.from({ length: count }, () => {
    const chars = [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  });
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
export const hashRecoveryCode = (code: string): string => sha256Hex(code.toLowerCase().replace(/[\s-]+/g, ""));

/** Whether a typed code looks like a recovery code rather than a TOTP code. */
const looksLikeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, "").length === 12;

/** The otpauth:// URL and its QR code (a data: URL) for an authenticator app. */
export async function enrolment(secret: string, email: string) {
  const url = totp(secret, email).toString();
  return { url, secret, qr: await QRCode.toDataURL(url, { margin: 1, width: 200 }) };
}

/** Starts (or restarts) setup: a new secret, not yet asked for at sign-in. Null when two-factor is already on. */
export async function beginTwoFactor(db: Db, userId: string): Promise<string | null> {
  const secret = newTotpSecret();
  const rows = await db
    .update(users)
    .set({ totpSecret: secret, totpLastStep: null })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  return rows.length ? secret : null;
}

/** Turns two-factor on when `code` matches the pending secret; returns the recovery codes (shown once), or null. */
export async function enableTwoFactor(db: Db, userId: string, code: string, now = Date.now(), clientAddress?: string): Promise<string[] | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user?.totpSecret || user.totpEnabledAt) return null;
  const step = matchTotp(user.totpSecret, code, user.totpLastStep, now);
  if (step === null) return null;
  const codes = newRecoveryCodes();
  const pending = user.totpSecret;
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ totpEnabledAt: new Date(now), totpLastStep: step, recoveryCodeHashes: codes.map(hashRecoveryCode) })
      .where(and(eq(users.id, userId), eq(users.totpSecret, pending), isNull(users.totpEnabledAt)))
      .returning({ id: users.id });
    if (rows.length) await auditUser(tx, user, clientAddress, { action: "user.twoFactorEnabled", before: { twoFactor: false }, after: { twoFactor: true } });
    return rows.length ? codes : null;
  });
}

/**
 * Checks a second factor of a user with two-factor on: a TOTP code (each accepted once) or a recovery code (removed
 * as it is used). The conditional UPDATEs make each single-use even when two sign-ins race.
 */
export async function verifySecondFactor(db: Db, userId: string, code: string, now = Date.now()): Promise<boolean> {
  const trimmed = code.trim();
  if (!trimmed || trimmed.length > 64) return false;
  if (looksLikeRecoveryCode(trimmed)) {
    const hash = hashRecoveryCode(trimmed);
    const rows = await db
      .update(users)
      .set({ recoveryCodeHashes: sql`array_remove(${users.recoveryCodeHashes}, ${hash})` })
      .where(and(eq(users.id, userId), isNotNull(users.totpEnabledAt), sql`${hash} = ANY(${users.recoveryCodeHashes})`))
      .returning({ id: users.id });
    return rows.length > 0;
  }
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user?.totpSecret || !user.totpEnabledAt) return false;
  const step = matchTotp(user.totpSecret, trimmed, user.totpLastStep, now);
  if (step === null) return false;
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), sql`coalesce(${users.totpLastStep}, -1) < ${step}`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Turns two-factor off when `code` (TOTP or recovery) is valid; false otherwise. */
export async function disableTwoFactor(db: Db, userId: string, code: string, now = Date.now(), clientAddress?: string): Promise<boolean> {
  if (!(await verifySecondFactor(db, userId, code, now))) return false;
  await db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, recoveryCodeHashes: [] })
      .where(eq(users.id, userId))
      .returning();
    if (user) await auditUser(tx, user, clientAddress, { action: "user.twoFactorDisabled", before: { twoFactor: true }, after: { twoFactor: false } });
  });
  return true;
}
