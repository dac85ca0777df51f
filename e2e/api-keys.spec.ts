import { expect, test } from "@playwright/test";
import { apiClient, createApiKey } from "./support/api";
import { shot } from "./support/screens";

test("create an API key, use it against /api/v1, revoke it and get 401", async ({ page, request }) => {
  const key = await createApiKey(page, "e2e backend");
  await expect(page.getByText("You won’t see it again")).toBeVisible();
  await shot(page, "api-keys-created");

  const api = apiClient(request, key);
  const created = await api.post("/trackables", { name: "Key check", type: "vehicle" });
  expect(created.status).toBe(201);
  expect((await api.get("/trackables")).status).toBe(200);

  // The row shows the prefix and, after a use, a "last used" time instead of "Never".
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  const row = page.getByTestId("api-key-row").filter({ hasText: "e2e backend" });
  await expect(row).toContainText(key.slice(0, 9));
  // lastUsedAt is written off the request's path: reload until it shows.
  await expect(async () => {
    await page.reload();
    await expect(row).not.toContainText("Never", { timeout: 1000 });
  }).toPass();

  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row.getByText("Revoked")).toBeVisible();
  await shot(page, "api-keys-revoked");

  const after = await api.get("/trackables");
  expect(after.status).toBe(401);
  expect(after.body.error.code).toBe("unauthorized");
});

test("a key limited to the scopes ticked on the page: allowed within them, 403 naming the scope outside", async ({ page, request }) => {
  await page.goto("/api-keys");
  await page.getByLabel("Name").fill("read-only reporter");
  await page.getByLabel("Only the scopes I choose").check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Choose at least one scope")).toBeVisible();
  await page.getByRole("checkbox", { name: "trackables:read" }).check();
  await page.getByRole("checkbox", { name: "events:read" }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const field = page.getByTestId("new-api-key");
  await expect(field).toHaveValue(/^fl_/);
  const key = await field.inputValue();
  await shot(page, "api-keys-scoped");

  const api = apiClient(request, key);
  expect((await api.get("/trackables")).status).toBe(200);
  const refused = await api.post("/trackables", { name: "Nope", type: "vehicle" });
  expect(refused.status).toBe(403);
  expect(refused.body.error).toMatchObject({ code: "insufficient_scope", scope: "trackables:write" });
  const row = page.getByTestId("api-key-row").filter({ hasText: "read-only reporter" });
  await expect(row.getByTestId("api-key-scopes")).toHaveText("trackables:read, events:read");
});

test("signed-out visitors are sent to sign-in", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/api-keys");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await shot(page, "sign-in");
  await context.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the API keys page and the sign-in page fit a 390 px screen", async ({ page, browser }) => {
    await createApiKey(page, "phone key");
    await expect(page.getByTestId("new-key-panel")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "api-keys-390");

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport: { width: 390, height: 844 } });
    const guest = await context.newPage();
    await guest.goto("/sign-in");
    await expect(guest.getByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(await guest.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(guest, "sign-in-390");
    await context.close();
  });
});
