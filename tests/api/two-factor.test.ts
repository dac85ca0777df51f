import { describe, expect, it } from "vitest";
import { totpCode, TOTP_PERIOD_S } from "@/lib/auth/two-factor";
import { baseUrl } from "../harness/client";
import { isSignedIn, postAction, signIn, signUpUser, uniqueEmail } from "../harness/dashboard";

const FILE = "lib/auth/actions.ts";

/** Signs a new user up and turns two-factor on through the account page's actions; the secret and recovery codes. */
async function userWithTwoFactor(name: string) {
  const user = await signUpUser(baseUrl(), uniqueEmail(name));
  const { cookie } = await signIn(baseUrl(), user.email, user.password);
  const begun = await postAction(baseUrl(), { page: "/account", file: FILE, name: "beginTwoFactorAction", args: [], cookie });
  const secret = /"secret":"([A-Z2-7]+)"/.exec(begun.text)?.[1];
  expect(secret, begun.text.slice(0, 300)).toBeDefined();
  expect(begun.text).toContain("data:image/png;base64,");

  const wrong = await postAction(baseUrl(), { page: "/account", file: FILE, name: "enableTwoFactorAction", args: [{ code: "000000" }], cookie });
  expect(wrong.text).toContain('"ok":false');
  const enabled = await postAction(baseUrl(), { page: "/account", file: FILE, name: "enableTwoFactorAction", args: [{ code: totpCode(secret!) }], cookie });
  const codes = JSON.parse(/"recoveryCodes":(\[[^\]]*\])/.exec(enabled.text)?.[1] ?? "null") as string[] | null;
  expect(codes, enabled.text.slice(0, 300)).toHaveLength(10);
  return { ...user, secret: secret!, recoveryCodes: codes!, cookie };
}

describe("two-factor sign-in", () => {
  it("refuses the password alone, accepts it with a code, and a recovery code works once", async () => {
    const user = await userWithTwoFactor("tfa");
    const headers = { "X-Forwarded-For": "203.0.113.61" };

    const passwordOnly = await signIn(baseUrl(), user.email, user.password, { headers });
    expect(passwordOnly.ok).toBe(false);
    expect(passwordOnly.error).toBe("TwoFactorRequired");

    const wrongPassword = await signIn(baseUrl(), user.email, "not the password", { headers, code: totpCode(user.secret) });
    expect(wrongPassword.ok).toBe(false);
    expect(wrongPassword.error).toBe("CredentialsSignin");

    const wrongCode = await signIn(baseUrl(), user.email, user.password, { headers, code: "123456" });
    expect(wrongCode.ok).toBe(false);
    expect(wrongCode.error).toBe("TwoFactorInvalid");

    // The code that turned it on was used: the next step's code (within the ±1 step window) signs in, once.
    const next = totpCode(user.secret, Date.now() + TOTP_PERIOD_S * 1000);
    const withCode = await signIn(baseUrl(), user.email, user.password, { headers, code: next });
    expect(withCode.ok, withCode.error ?? "").toBe(true);
    expect(await isSignedIn(baseUrl(), withCode.cookie)).toBe(true);
    const replay = await signIn(baseUrl(), user.email, user.password, { headers, code: next });
    expect(replay.error).toBe("TwoFactorInvalid");

    const recovery = user.recoveryCodes[0]!;
    const withRecovery = await signIn(baseUrl(), user.email, user.password, { headers, code: recovery });
    expect(withRecovery.ok, withRecovery.error ?? "").toBe(true);
    const again = await signIn(baseUrl(), user.email, user.password, { headers, code: recovery });
    expect(again.ok).toBe(false);
    expect(again.error).toBe("TwoFactorInvalid");
  });

  it("wrong codes spend the sign-in budget of the email and client address", async () => {
    const user = await userWithTwoFactor("tfa-guess");
    const headers = { "X-Forwarded-For": "203.0.113.62" };
    for (let i = 0; i < 10; i++) {
      const res = await signIn(baseUrl(), user.email, user.password, { headers, code: String(100000 + i) });
      expect(res.ok).toBe(false);
    }
    const right = await signIn(baseUrl(), user.email, user.password, { headers, code: user.recoveryCodes[1]! });
    expect(right.ok).toBe(false);
    expect(right.error).toContain("Too many sign-in attempts");
  });

  it("turning it off needs a valid code; afterwards the password alone signs in", async () => {
    const user = await userWithTwoFactor("tfa-off");
    const refused = await postAction(baseUrl(), { page: "/account", file: FILE, name: "disableTwoFactorAction", args: [{ code: "999999" }], cookie: user.cookie });
    expect(refused.text).toContain('"ok":false');
    const off = await postAction(baseUrl(), { page: "/account", file: FILE, name: "disableTwoFactorAction", args: [{ code: user.recoveryCodes[2] }], cookie: user.cookie });
    expect(off.text).toContain('"ok":true');
    const plain = await signIn(baseUrl(), user.email, user.password, { headers: { "X-Forwarded-For": "203.0.113.63" } });
    expect(plain.ok, plain.error ?? "").toBe(true);
  });
});
