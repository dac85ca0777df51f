import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../harness/client";
import { isSignedIn, postAction, signIn, signUpUser, uniqueEmail } from "../harness/dashboard";
import { startServer, type TestServer } from "../harness/server";
import { startSmtpCapture } from "../support/smtp";

// "Forgot password?" end to end: a server with SMTP_URL mails the link to a real SMTP server in the test, and the
// link's page sets the password once. (Its expiry after an hour is in lib/auth/password-reset.test.ts, with `now`.)
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

beforeAll(async () => {
  smtp = await startSmtpCapture({ user: "fenceline", pass: "mail-secret" });
  server = await startServer({ env: { SMTP_URL: smtp.url, SMTP_FROM: "Fenceline <noreply@example.com>" } });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const forgot = (email: string) =>
  postAction(server.baseUrl, { page: "/forgot-password", file: "lib/auth/actions.ts", name: "forgotPasswordAction", args: [{ email }] });
const reset = (token: string, password: string) =>
  postAction(server.baseUrl, { page: "/reset-password", file: "lib/auth/actions.ts", name: "resetPasswordAction", args: [{ token, password }] });
/** The action's result line of an RSC answer (the rest names build chunks). */
const result = (text: string) => text.split("\n").find((l) => l.includes('"ok":'));

describe("forgot password, with SMTP_URL", () => {
  it("links to it from the sign-in page", async () => {
    const page = await (await fetch(`${server.baseUrl}/sign-in`)).text();
    expect(page).toContain('href="/forgot-password"');
    expect((await fetch(`${server.baseUrl}/forgot-password`)).status).toBe(200);
  });

  it("mails a link that sets a new password once and ends the sessions that were open", async () => {
    const user = await signUpUser(server.baseUrl, uniqueEmail("reset"));
    const before = await signIn(server.baseUrl, user.email, user.password);
    expect(await isSignedIn(server.baseUrl, before.cookie)).toBe(true);

    const asked = await forgot(user.email);
    expect(asked.status).toBe(200);
    expect(result(asked.text)).toContain('"ok":true');
    const mail = await smtp.next();
    expect(mail.envelope.to).toEqual([user.email]);
    const link = new RegExp(`${server.baseUrl}/reset-password\\?token=[\\w-]+`).exec(mail.parsed.text ?? "")?.[0];
    expect(link, mail.parsed.text).toBeDefined();
    const token = new URL(link!).searchParams.get("token")!;

    expect(await (await fetch(link!)).text()).toContain("Set a new password");
    const done = await reset(token, "a fresh passphrase");
    expect(result(done.text)).toContain('"ok":true');

    expect(await isSignedIn(server.baseUrl, before.cookie)).toBe(false);
    expect((await signIn(server.baseUrl, user.email, user.password)).ok).toBe(false);
    expect((await signIn(server.baseUrl, user.email, "a fresh passphrase")).ok).toBe(true);

    // Once only.
    const again = await reset(token, "yet another passphrase");
    expect(result(again.text)).toContain("expired or was already used");
    expect(await (await fetch(link!)).text()).toContain("This link no longer works");
  });

  it("answers an unknown address exactly as a known one, and mails nothing", async () => {
    const known = await signUpUser(server.baseUrl, uniqueEmail("known"));
    const forKnown = await forgot(known.email);
    await smtp.next();
    const forUnknown = await forgot(uniqueEmail("unknown"));
    expect(forUnknown.status).toBe(forKnown.status);
    expect(result(forUnknown.text)).toBe(result(forKnown.text));
    // A mail to the unknown address would have been sent by now (the known one's took far less).
    await new Promise((r) => setTimeout(r, 1_000));
    expect(smtp.mails.map((m) => m.envelope.to[0])).not.toContain(expect.stringContaining("unknown"));
  });

  it("refuses a short new password with the sign-up rule's message", async () => {
    const short = await reset("whatever", "short");
    expect(result(short.text)).toContain("Use at least 10 characters");
  });
});

describe("npm run user:reset-password", () => {
  // While the server holds the embedded database the script asks it (the operator endpoint); on Postgres it opens the
  // database itself. Either way the link it prints sets the password.
  const script = (email: string) =>
    promisify(execFile)(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/user-reset-password.ts", "--email", email], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl ?? "", APP_URL: server.baseUrl },
    });

  it("prints a working link for a user, and fails for an unknown address", async () => {
    const user = await signUpUser(server.baseUrl, uniqueEmail("operator"));
    const { stdout } = await script(user.email);
    const link = stdout.trim();
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/reset-password\\?token=[\\w-]{43}$`));
    const done = await reset(new URL(link).searchParams.get("token")!, "set by the operator");
    expect(result(done.text)).toContain('"ok":true');
    expect((await signIn(server.baseUrl, user.email, "set by the operator")).ok).toBe(true);

    const unknown = await script(uniqueEmail("nobody")).catch((err: { code: number; stderr: string }) => err);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining("not found") });
  });
});

describe("forgot password, without SMTP_URL (the suite's shared server)", () => {
  it("shows no link and no form", async () => {
    expect(await (await fetch(`${baseUrl()}/sign-in`)).text()).not.toContain("/forgot-password");
    expect((await fetch(`${baseUrl()}/forgot-password`)).status).toBe(404);
  });
});
