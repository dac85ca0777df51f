import { expect, test } from "./support/fresh-account";
import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";

// Under the Content-Security-Policy (a nonce per request, lib/server/security-headers.ts) no page breaks: every kind of
// page renders and runs its scripts with no console error and no CSP violation. Then the password change: this
// browser stays signed in, a copy of its old cookie stops working.

test("every kind of page renders under the CSP without a console error or a violation", async ({ page, freshAccount, request }) => {
  const console = watchConsole(page);
  const violations: string[] = [];
  await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const api = apiClient(request, await createApiKey(page, "e2e csp"));
  const trackable = (await api.post("/trackables", { name: "CSP van" })).body;
  await api.post(`/trackables/${trackable.id}/locations`, { latitude: 52.52, longitude: 13.405, timestamp: new Date().toISOString() });
  const link = (await api.post("/share-links", { trackableId: trackable.id, expiresIn: 3600 })).body;

  const visits: [string, RegExp | string][] = [
    ["/trackables", "Trackables"],
    [`/trackables/${trackable.id}`, "CSP van"],
    ["/geofences", "Geofences"],
    ["/webhooks", "Webhooks"],
    ["/deliveries", "Deliveries"],
    ["/api-keys", "API keys"],
    ["/account", "Account"],
    ["/docs/api", /API/],
  ];
  for (const [path, heading] of visits) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toContainText(heading);
  }
  // The maps ran their scripts (Leaflet drew its container).
  await page.goto(`/trackables/${trackable.id}`);
  await expect(page.locator(".leaflet-container").first()).toBeVisible();

  const guest = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await guest.newPage();
  const guestConsole = watchConsole(visitor);
  await visitor.goto(new URL(link.url).pathname);
  await expect(visitor.getByTestId("share-marker")).toBeVisible();
  await visitor.goto("/sign-in");
  await expect(visitor.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await visitor.goto("/no-such-page");
  await expect(visitor.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  // The 404 itself is reported by Chromium as a failed load; nothing else may be.
  expect(guestConsole.errors.filter((e) => !e.includes("/no-such-page"))).toEqual([]);
  await guest.close();

  expect(violations).toEqual([]);
  console.expectNone();
  void freshAccount;
});

test("changing the password keeps this browser signed in and ends a copied session", async ({ page, freshAccount, browser }) => {
  const copied = await page.context().cookies();
  const other = await browser.newContext({ storageState: { cookies: copied, origins: [] } });
  const otherPage = await other.newPage();
  await otherPage.goto("/account");
  await expect(otherPage.getByTestId("signed-in-email")).toHaveText(freshAccount.user.email);

  await page.goto("/account");
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#currentPassword-error")).toHaveText("The current password is not correct.");

  await page.getByLabel("Current password").fill(freshAccount.user.password);
  await page.getByLabel("New password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. Every other session has been signed out.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("signed-in-email")).toHaveText(freshAccount.user.email);

  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in/);
  await other.close();
});

test("signing out ends a copied session too", async ({ page, browser }) => {
  const copied = await page.context().cookies();
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out" }).last().click();
  await page.waitForURL("**/sign-in**");

  const other = await browser.newContext({ storageState: { cookies: copied, origins: [] } });
  const otherPage = await other.newPage();
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in/);
  await other.close();
});
