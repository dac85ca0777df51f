import { expect, test } from "@playwright/test";
import { awayFromWindowEdge } from "../tests/support/window-edge";
import { signUpFresh } from "./support/fresh-account";
import { shot } from "./support/screens";
import { savedUser, type TestUser } from "./support/user";

// These run signed out: a fresh context without the saved session.
test.use({ storageState: { cookies: [], origins: [] } });
let USER: TestUser;
test.beforeAll(() => {
  USER = savedUser();
});

test("a wrong password is refused with a message next to the form", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(USER.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("alert-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("sign-up reports invalid fields and a taken email", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter a valid email address.");
  await expect(page.locator("#password-error")).toHaveText("Use at least 10 characters.");
  await shot(page, "sign-up-errors");

  await page.getByLabel("Email").fill(USER.email);
  await page.getByLabel("Password").fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#email-error")).toContainText("already exists");
});

test("sign-in attempts for one email from one client are throttled after 10 in 10 minutes", async ({ page }) => {
  // The ten attempts and the eleventh fit in one of the limiter's 10-minute windows (SIGNIN_WINDOW_S in
  // lib/auth/throttle.ts): across a window's end the sliding-window approximation may let the eleventh through.
  await awayFromWindowEdge(20_000, 600_000);
  const email = `target+${Date.now().toString(36)}@example.com`;
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  const alert = page.getByTestId("alert-error");
  for (let i = 0; i < 10; i++) {
    await page.getByLabel("Password").fill(`guess number ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(alert).toHaveText("Wrong email or password.");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await page.getByLabel("Password").fill("one more guess");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(alert).toContainText("Too many sign-in attempts");
});

// A user of its own: signing out ends every session of the user (the saved one of the other specs included).
test("sign in, then sign out", async ({ page, browser }) => {
  const fresh = await signUpFresh(browser);
  await fresh.context.close();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(fresh.user.email.toUpperCase());
  await page.getByLabel("Password").fill(fresh.user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/trackables");
  await page.goto("/api-keys");
  await page.getByRole("button", { name: "Sign out" }).last().click();
  await page.waitForURL("**/sign-in**");
  await page.goto("/api-keys");
  await expect(page).toHaveURL(/\/sign-in/);
});
