import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { seriousViolations } from "./support/axe";
import { signUpFresh } from "./support/fresh-account";
import { shot } from "./support/screens";

const PHONE = { width: 390, height: 844 };

async function expectAccessible(page: import("@playwright/test").Page) {
  const bad = await seriousViolations(page);
  expect(bad, bad.join("\n")).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test("turn on two-factor sign-in on a phone, then sign in with a recovery code", async ({ browser }) => {
  const { context, page, user } = await signUpFresh(browser, PHONE);
  await page.goto("/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page);
  await shot(page, "two-factor-setup-390");

  // A wrong code is refused; the app's current code turns it on.
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("alert-error")).toContainText("not valid");
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  await page.getByLabel("Code from the app").fill(code);
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent())!.trim();
  await expectAccessible(page);
  await shot(page, "two-factor-recovery-codes-390");
  await page.getByRole("button", { name: "I saved them" }).click();
  await expect(page.locator("p", { hasText: "Two-factor sign-in is on" })).toBeVisible();

  // Signing in now asks for a code after the password.
  const guest = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: PHONE });
  const signInPage = await guest.newPage();
  await signInPage.goto("/sign-in");
  await signInPage.getByLabel("Email").fill(user.email);
  await signInPage.getByLabel("Password").fill(user.password);
  await signInPage.getByRole("button", { name: "Sign in" }).click();
  await expect(signInPage.getByLabel("Two-factor code")).toBeVisible();
  await expectAccessible(signInPage);
  await shot(signInPage, "two-factor-sign-in-390");
  await signInPage.getByLabel("Two-factor code").fill(recovery);
  await signInPage.getByRole("button", { name: "Verify" }).click();
  await signInPage.waitForURL("**/trackables");
  await guest.close();
  await context.close();
});
