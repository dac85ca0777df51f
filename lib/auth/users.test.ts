import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUnitDb } from "@/tests/support/unit-db";
import type { Db } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { hashPassword, verifyPassword } from "./password";
import { SignUpInput } from "./schemas";
import { awayFromWindowEdge } from "@/tests/support/window-edge";
import { SIGNIN_PER_EMAIL_AND_IP, SIGNIN_WINDOW_S } from "./throttle";
import { changePassword, EmailTakenError, findOrCreateOAuthUser, getUserWithAccount, signUp, verifyCredentials, WrongPasswordError } from "./users";

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await openUnitDb("auth"));
}, 120_000);
afterAll(async () => close?.());

const unique = (name: string) => `${name}+${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

describe("password hashing (scrypt)", () => {
  it("verifies the right password and refuses a wrong one; salts differ", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery staple", a)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", a)).toBe(false);
  });

  it("treats a malformed stored hash as a mismatch", async () => {
    expect(await verifyPassword("x", "bcrypt$whatever")).toBe(false);
    expect(await verifyPassword("x", "scrypt$0$8$1$AAAA$AAAA")).toBe(false);
  });
});

describe("sign-up input", () => {
  it("normalises the email and reports every invalid field", () => {
    expect(SignUpInput.parse({ email: "  Ada@Example.COM ", password: "0123456789" }).email).toBe("ada@example.com");
    const r = SignUpInput.safeParse({ email: "nope", password: "short" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path[0]).sort()).toEqual(["email", "password"]);
  });
});

describe("users", () => {
  it("sign-up creates the user with a new account on DEFAULT_PLAN; sign-in checks the password", async () => {
    const email = unique("ada");
    const user = await signUp(db, { email, password: "correct horse battery staple", name: "Ada" });
    const found = await getUserWithAccount(db, user.id);
    expect(found!.account.plan).toBe("enterprise");
    expect(found!.account.name).toBe("Ada's workspace");
    expect(found!.user.passwordHash).not.toContain("correct horse");

    expect((await verifyCredentials(db, email, "correct horse battery staple"))?.id).toBe(user.id);
    expect(await verifyCredentials(db, email, "wrong password!")).toBeNull();
    expect(await verifyCredentials(db, unique("nobody"), "whatever else")).toBeNull();
  });

  it("refuses a second sign-up with the same email, also when two race", async () => {
    const email = unique("race");
    const results = await Promise.allSettled([
      signUp(db, { email, password: "0123456789a" }),
      signUp(db, { email, password: "0123456789b" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failed.reason).toBeInstanceOf(EmailTakenError);
  });

  it("OAuth sign-in creates a user (no password) once and finds it afterwards", async () => {
    const email = unique("oauth");
    const first = await findOrCreateOAuthUser(db, email, "Grace");
    const again = await findOrCreateOAuthUser(db, email, "Grace");
    expect(again.id).toBe(first.id);
    expect(first.passwordHash).toBeNull();
    // A user without a password cannot sign in with one.
    expect(await verifyCredentials(db, email, "")).toBeNull();
    const [account] = await db.select().from(accounts).where(eq(accounts.id, first.accountId));
    expect(account!.slug).toMatch(/^oauth-[a-z0-9-]+$/);
  });
});

describe("changing the password", () => {
  it("spends the sign-in budgets: past 10 wrong current passwords from one address even the right one is refused there", async () => {
    const password = "correct horse battery staple";
    const user = await signUp(db, { email: unique("change"), password });
    const newPassword = "a brand new passphrase";
    const attacker = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    await awayFromWindowEdge(20_000, SIGNIN_WINDOW_S * 1000);
    for (let i = 0; i < SIGNIN_PER_EMAIL_AND_IP; i++) {
      await expect(changePassword(db, user.id, { currentPassword: `guess ${i}`, newPassword }, { clientIp: attacker })).rejects.toBeInstanceOf(WrongPasswordError);
    }
    await expect(changePassword(db, user.id, { currentPassword: password, newPassword }, { clientIp: attacker })).rejects.toThrow(
      /^Too many password attempts\. Try again in \d+ minute\(s\)\.$/,
    );
    expect(await verifyCredentials(db, user.email, password)).not.toBeNull();
    // The owner, from their own address, is not locked out.
    await changePassword(db, user.id, { currentPassword: password, newPassword }, { clientIp: "192.0.2.44" });
    expect(await verifyCredentials(db, user.email, newPassword)).not.toBeNull();
  }, 60_000);
});
