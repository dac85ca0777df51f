import { expect, test } from "./support/fresh-account";
import { watchConsole } from "./support/console";
import { shot } from "./support/screens";
import { savedUser } from "./support/user";
import { DESK, PHONE } from "./support/workspace";

test.describe("on a phone", () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test("the Menu button opens the navigation, a link navigates and closes it, Escape closes it too", async ({ page }) => {
    const errors = watchConsole(page);
    await page.goto("/trackables");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const menu = nav.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    // Closed: the links are not shown (no clipped tab bar either).
    await expect(nav.getByRole("link", { name: "Webhooks" })).toBeHidden();

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link", { name: "Trackables" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("button", { name: "Sign out" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "menu-open-390");

    await nav.getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL("**/webhooks");
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Webhooks" })).toBeHidden();

    // By keyboard: Enter opens, Tab reaches the links, Escape closes and gives the focus back to the button.
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Trackables" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();

    // A tap outside closes it.
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.mouse.click(PHONE.width / 2, PHONE.height - 20);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    errors.expectNone();
  });
});

test.describe("on a desk", () => {
  test.use({ viewport: DESK });

  test("the sidebar lists every page without a Menu button", async ({ page }) => {
    await page.goto("/api-keys");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("button", { name: "Menu" })).toBeHidden();
    for (const name of ["Trackables", "Geofences", "Webhooks", "Deliveries", "API keys", "Account"]) {
      await expect(nav.getByRole("link", { name })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");
  });

  test("a focused link shows a focus ring", async ({ page }) => {
    await page.goto("/trackables");
    await page.keyboard.press("Tab"); // the skip link
    await page.keyboard.press("Tab"); // the logo
    await page.keyboard.press("Tab"); // the first menu entry (the Menu button is hidden on a desk)
    const link = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Trackables" });
    await expect(link).toBeFocused();
    const outline = await link.evaluate((el) => getComputedStyle(el).outlineStyle + " " + getComputedStyle(el).outlineWidth);
    expect(outline).toBe("solid 2px");
  });
});

test("sign-in returns to the page that was asked for", async ({ browser }) => {
  const user = savedUser();
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  try {
    await page.goto("/webhooks/new?from=test");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fwebhooks%2Fnew%3Ffrom%3Dtest$/);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/webhooks/new?from=test");
    await expect(page.getByRole("heading", { level: 1, name: "New endpoint" })).toBeVisible();

    // A page with an id in its path, too; and a page of the dashboard's home goes to plain /sign-in.
    await context.clearCookies();
    await page.goto("/trackables/00000000-0000-4000-8000-000000000000");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Ftrackables%2F00000000-0000-4000-8000-000000000000$/);
    await context.clearCookies();
    await page.goto("/trackables");
    await expect(page).toHaveURL(/\/sign-in$/);
    // The open-redirect guard still holds: another origin in callbackUrl goes to /trackables.
    await page.goto("/sign-in?callbackUrl=%2F%5Cevil.example");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/trackables");
  } finally {
    await context.close();
  }
});

test("form errors read as sentences and clear as soon as the field is edited", async ({ page }) => {
  // The trackable dialog: an empty name.
  await page.goto("/trackables");
  await page.getByRole("button", { name: "New trackable" }).first().click();
  const dialog = page.getByRole("dialog");
  const name = dialog.getByLabel("Name");
  await name.fill("   ");
  await dialog.getByRole("button", { name: "Create trackable" }).click();
  const error = dialog.locator(`#${await name.getAttribute("id")}-error`);
  await expect(error).toHaveText("Name must be 1–100 characters.");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await name.fill("Van 12");
  await expect(error).toHaveCount(0);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // The webhook form: a refused URL and no event kind, each cleared by fixing its own field.
  await page.goto("/webhooks/new");
  await page.getByLabel("Endpoint URL").fill("ftp://example.com/x");
  await page.getByRole("checkbox", { name: /geofence\.entry/ }).uncheck();
  await page.getByRole("checkbox", { name: /geofence\.exit/ }).uncheck();
  await page.getByRole("button", { name: "Create endpoint" }).click();
  await expect(page.locator("#wh-url-error")).toHaveText(/^Endpoint URL must use http or https.*\.$/);
  await expect(page.locator("#wh-events-error")).toHaveText("Events must list at least one event kind.");
  await page.getByRole("checkbox", { name: /geofence\.entry/ }).check();
  await expect(page.locator("#wh-events-error")).toHaveCount(0);
  await expect(page.locator("#wh-url-error")).toBeVisible();
  await page.getByLabel("Endpoint URL").fill("https://example.com/hooks");
  await expect(page.locator("#wh-url-error")).toHaveCount(0);

  // Sign-up: zod's own wording never shows.
  const context = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } });
  const guest = await context.newPage();
  await guest.goto("/sign-up");
  await guest.getByLabel("Email").fill("not an email");
  await guest.getByLabel("Password").fill("short");
  await guest.getByRole("button", { name: "Create account" }).click();
  await expect(guest.locator("#email-error")).toHaveText("Enter a valid email address.");
  await expect(guest.locator("#password-error")).toHaveText("Use at least 10 characters.");
  await guest.getByLabel("Password").fill("long enough password");
  await expect(guest.locator("#password-error")).toHaveCount(0);
  await expect(guest.locator("#email-error")).toBeVisible();
  await context.close();
});
