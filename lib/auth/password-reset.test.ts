import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordResetTokens } from "@/lib/db/schema";
import { createMailer, type Mailer } from "@/lib/mail/mailer";
import { startSmtpCapture } from "@/tests/support/smtp";
import { openUnitDb } from "@/tests/support/unit-db";
import { ApiError } from "@/lib/http/errors";
import { createResetLink, InvalidResetLinkError, resetLinkFor, requestPasswordReset, resetPassword, RESET_PER_EMAIL, RESET_TOKEN_TTL_MS, resetTokenUsable } from "./password-reset";
import { getUserWithAccount, signUp, verifyCredentials } from "./users";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let mailer: Mailer;

beforeAll(async () => {
  unit = await openUnitDb("password-reset");
  smtp = await startSmtpCapture();
  mailer = createMailer({ url: smtp.url, from: "Fenceline <noreply@example.com>", timeoutMs: 5_000 });
}, 120_000);
// The test's database (its temp directory or scratch database) goes with the users signed up here.
afterAll(async () => {
  mailer?.close();
  await smtp?.close();
  await unit?.close();
});

let n = 0;
async function newUser(password = "old password 1") {
  const email = `reset-${Date.now()}-${n++}@example.com`;
  return signUp(unit.db, { email, password });
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe("forgot password", () => {
  it("mails a link that sets a new password once, and ends every session of the user", async () => {
    const user = await newUser();
    const { sending } = await requestPasswordReset(unit.db, user.email, { mailer });
    await sending;
    const mail = await smtp.next();
    expect(mail.envelope.to).toEqual([user.email]);
    expect(mail.parsed.subject).toBe("Reset your Fenceline password");
    const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? "")?.[0];
    expect(link, mail.parsed.text).toBeDefined();
    expect(mail.parsed.html).toContain(`href="${link}"`);

    // Only the token's hash is stored.
    const [stored] = await unit.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored!.tokenHash).not.toContain(tokenOf(link!));

    expect(await resetTokenUsable(unit.db, tokenOf(link!))).toBe(true);
    expect(await resetPassword(unit.db, tokenOf(link!), "new password 22")).toBe(user.email);
    expect(await verifyCredentials(unit.db, user.email, "new password 22")).not.toBeNull();
    expect(await verifyCredentials(unit.db, user.email, "old password 1")).toBeNull();
    // A session carries the version it began with; lib/auth/session.ts refuses it once the user's version moved.
    expect((await getUserWithAccount(unit.db, user.id))!.user.sessionVersion).toBe(user.sessionVersion + 1);

    expect(await resetTokenUsable(unit.db, tokenOf(link!))).toBe(false);
    await expect(resetPassword(unit.db, tokenOf(link!), "third password 3")).rejects.toBeInstanceOf(InvalidResetLinkError);
    expect(await verifyCredentials(unit.db, user.email, "new password 22")).not.toBeNull();
  });

  it("gives an unknown address the same answer and mails nothing", async () => {
    const before = smtp.mails.length;
    const answer = await requestPasswordReset(unit.db, "nobody-here@example.com", { mailer });
    expect(Object.keys(answer)).toEqual(["sending"]);
    await answer.sending;
    expect(smtp.mails.length).toBe(before);
    expect(await createResetLink(unit.db, "nobody-here@example.com")).toBeNull();
  });

  it("works until an hour after it was made, not after", async () => {
    const user = await newUser();
    const madeAt = new Date("2026-11-25T10:00:00Z");
    const late = tokenOf((await createResetLink(unit.db, user.email, { now: madeAt }))!);
    const atDeadline = new Date(madeAt.getTime() + RESET_TOKEN_TTL_MS);
    expect(await resetTokenUsable(unit.db, late, { now: atDeadline })).toBe(false);
    await expect(resetPassword(unit.db, late, "too late pass 1", { now: atDeadline })).rejects.toBeInstanceOf(InvalidResetLinkError);

    const inTime = tokenOf((await createResetLink(unit.db, user.email, { now: madeAt }))!);
    await resetPassword(unit.db, inTime, "just in time 1", { now: new Date(atDeadline.getTime() - 1) });
    expect(await verifyCredentials(unit.db, user.email, "just in time 1")).not.toBeNull();
  });

  it("retires the user's other links when one is used", async () => {
    const user = await newUser();
    const first = tokenOf((await createResetLink(unit.db, user.email))!);
    const second = tokenOf((await createResetLink(unit.db, user.email))!);
    await resetPassword(unit.db, second, "second link 12");
    await expect(resetPassword(unit.db, first, "first link 123")).rejects.toBeInstanceOf(InvalidResetLinkError);
  });

  it(`mails an address at most ${RESET_PER_EMAIL} times an hour, answering the same past that`, async () => {
    const user = await newUser();
    const before = smtp.mails.length;
    for (let i = 0; i < RESET_PER_EMAIL + 2; i++) await (await requestPasswordReset(unit.db, user.email, { mailer })).sending;
    for (let i = 0; i < RESET_PER_EMAIL; i++) await smtp.next();
    expect(smtp.mails.length - before).toBe(RESET_PER_EMAIL);
  });

  it("gives the operator a link (user:reset-password) for a known address, 404 for an unknown one", async () => {
    const user = await newUser();
    const { link, expiresInSeconds } = await resetLinkFor(unit.db, user.email);
    expect(link).toMatch(/^http:\/\/localhost:\d+\/reset-password\?token=[\w-]{43}$/);
    expect(expiresInSeconds).toBe(3600);
    await resetPassword(unit.db, tokenOf(link), "operator set 1");
    expect(await verifyCredentials(unit.db, user.email, "operator set 1")).not.toBeNull();
    const err = await resetLinkFor(unit.db, "nobody-at-all@example.com").catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("not_found");
  });
});
