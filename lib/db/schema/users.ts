import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts } from "./columns";

// A person who signs in to the dashboard. Each user belongs to one account (the workspace created at sign-up).
export const users = pgTable(
  "users",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    // Stored lower-cased and trimmed: sign-in is case-insensitive.
    email: text("email").notNull(),
    name: text("name"),
    // scrypt hash in PHC-like form ("scrypt$N$r$p$salt$hash"); null for users who only sign in with OAuth.
    passwordHash: text("password_hash"),
    createdAt: createdAt(),
    lastSignInAt: ts("last_sign_in_at"),
    // Carried in each session's token and compared on every request: bumped by sign-out and a password change, it
    // ends every session that began before (copies of the cookie included).
    sessionVersion: integer("session_version").notNull().default(0),
    // Two-factor sign-in (TOTP, RFC 6238): the base32 secret, set when setup begins; sign-in asks for a code only once
    // totp_enabled_at is set. The last accepted time step refuses a code's replay; recovery codes are SHA-256 hashes,
    // each removed when used.
    totpSecret: text("totp_secret"),
    totpEnabledAt: ts("totp_enabled_at"),
    totpLastStep: integer("totp_last_step"),
    recoveryCodeHashes: text("recovery_code_hashes").array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    // Sign-in and sign-up look a user up by email; one user per address.
    uniqueIndex("users_email_key").on(t.email),
    // The account page lists its members.
    index("users_account_idx").on(t.accountId),
  ],
);

export type UserRow = typeof users.$inferSelect;
