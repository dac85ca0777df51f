import { expect, test as setup } from "@playwright/test";
import { shot } from "./support/screens";
import { newUser, saveUser } from "./support/user";

// Signs up once (which also signs in) and saves the session for every other spec.
setup("sign up and keep the session", async ({ page }) => {
  const USER = newUser();
  await page.goto("/sign-up");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await shot(page, "sign-up");
  await page.getByLabel("Name").fill(USER.name);
  await page.getByLabel("Email").fill(USER.email);
  await page.getByLabel("Password").fill(USER.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/trackables");
  await page.context().storageState({ path: "e2e/.auth/user.json" });
  saveUser(USER);
});
