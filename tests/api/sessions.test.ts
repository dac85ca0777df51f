import { describe, expect, it } from "vitest";
import { baseUrl } from "../harness/client";
import { isSignedIn, postAction, signIn, signOut, signUpUser, uniqueEmail } from "../harness/dashboard";
import { awayFromWindowEdge } from "../support/window-edge";

// A session cookie stops working when its user signs out or changes the password, copies of it included.
describe("sessions end", () => {
  it("on sign-out: a copied cookie is refused afterwards", async () => {
    const user = await signUpUser(baseUrl(), uniqueEmail("signout"));
    const session = await signIn(baseUrl(), user.email, user.password);
    expect(session.ok).toBe(true);
    const copy = session.cookie;
    expect(await isSignedIn(baseUrl(), copy)).toBe(true);

    await signOut(baseUrl(), session.cookie);
    expect(await isSignedIn(baseUrl(), copy)).toBe(false);
    // Signing in again gives a session that works.
    const again = await signIn(baseUrl(), user.email, user.password);
    expect(await isSignedIn(baseUrl(), again.cookie)).toBe(true);
  });

  it("on a password change: other sessions are refused, the new password signs in, the old one no longer", async () => {
    const user = await signUpUser(baseUrl(), uniqueEmail("password"));
    const here = await signIn(baseUrl(), user.email, user.password);
    const elsewhere = await signIn(baseUrl(), user.email, user.password);
    const change = (currentPassword: string) =>
      postAction(baseUrl(), {
        page: "/account",
        file: "lib/accounts/actions.ts",
        name: "changePasswordAction",
        args: [{ currentPassword, newPassword: "a brand new passphrase" }],
        cookie: here.cookie,
      });

    const wrong = await change("not my password");
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("The current password is not correct");
    expect(await isSignedIn(baseUrl(), elsewhere.cookie)).toBe(true);

    const ok = await change(user.password);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('"ok":true');
    expect(await isSignedIn(baseUrl(), elsewhere.cookie)).toBe(false);
    expect((await signIn(baseUrl(), user.email, user.password)).error).toBe("CredentialsSignin");
    const fresh = await signIn(baseUrl(), user.email, "a brand new passphrase");
    expect(await isSignedIn(baseUrl(), fresh.cookie)).toBe(true);
  });

  it("a password change spends the sign-in budgets: past 10 attempts the client is refused, the right password too", async () => {
    const user = await signUpUser(baseUrl(), uniqueEmail("guesser"));
    // The ten attempts and the eleventh in one of the limiter's 10-minute windows.
    await awayFromWindowEdge(20_000, 600_000);
    // The sign-in is the first of the (email, address) pair's 10 attempts: the budget is shared.
    const session = await signIn(baseUrl(), user.email, user.password);
    const change = (currentPassword: string) =>
      postAction(baseUrl(), {
        page: "/account",
        file: "lib/accounts/actions.ts",
        name: "changePasswordAction",
        args: [{ currentPassword, newPassword: "a brand new passphrase" }],
        cookie: session.cookie,
      });
    for (let i = 0; i < 9; i++) expect((await change(`guess ${i}`)).text).toContain("The current password is not correct");
    const refused = await change(user.password);
    expect(refused.text).toMatch(/Too many password attempts\. Try again in \d+ minute\(s\)\./);
    expect(refused.text).toContain('"code":"rate_limit_exceeded"');
    // Nothing changed: the session still works and the password is the old one.
    expect(await isSignedIn(baseUrl(), session.cookie)).toBe(true);
  });
});
