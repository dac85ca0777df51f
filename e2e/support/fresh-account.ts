import { test as base, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { newUser, type TestUser } from "./user";

/** Signs a new user up (a new, empty account) in a context of its own, without the setup project's session. */
export async function signUpFresh(
  browser: Browser,
  viewport?: { width: number; height: number },
  device: { isMobile?: boolean; hasTouch?: boolean; timezoneId?: string; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page; user: TestUser }> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, ...(viewport ? { viewport } : {}), ...device });
  const page = await context.newPage();
  const user = { ...newUser(), email: `fresh+${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com` };
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/trackables");
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  return { context, page, user };
}

export type FreshAccount = Awaited<ReturnType<typeof signUpFresh>>;

/**
 * `test` whose `page` belongs to a new, empty account (`freshAccount.user` signed in): for specs that count what the
 * account holds, so the specs sharing the setup project's account cannot change what they see.
 */
export const test = base.extend<{ freshAccount: FreshAccount }>({
  // The spec's test.use({ timezoneId, locale }) applies to the fresh context too.
  freshAccount: async ({ browser, viewport, isMobile, hasTouch, timezoneId, locale }, use) => {
    const fresh = await signUpFresh(browser, viewport ?? undefined, { isMobile, hasTouch, timezoneId, locale });
    await use(fresh);
    await fresh.context.close();
  },
  page: async ({ freshAccount }, use) => use(freshAccount.page),
});
export { expect };
