import { apiClient, createApiKey } from "./support/api";
import { seriousViolations } from "./support/axe";
import { watchConsole } from "./support/console";
import { expect, test } from "./support/fresh-account";

test.use({ viewport: { width: 390, height: 844 } });

test("delete a workspace on a phone: its name typed to confirm, then signed out, the data and the sign-in gone", async ({ page, request, freshAccount }) => {
  const errors = watchConsole(page);
  const key = await createApiKey(page, "e2e delete workspace");
  const api = apiClient(request, key);
  expect((await api.post("/trackables", { name: "Doomed van", type: "vehicle" })).status).toBe(201);
  const workspace = (await api.get("/account")).body.name as string;

  await page.goto("/account");
  const zone = page.getByRole("region", { name: "Delete workspace" });
  await expect(zone).toBeVisible();
  const button = zone.getByRole("button", { name: "Delete workspace" });
  const confirm = zone.getByLabel(`Type ${workspace} to confirm`);
  await expect(button).toBeDisabled();
  await confirm.fill(`${workspace} nearly`);
  await expect(button).toBeDisabled();

  const bad = await seriousViolations(page);
  expect(bad, bad.join("\n")).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await confirm.fill(workspace);
  await button.click();
  await page.waitForURL("**/sign-in**");

  // The key went with the workspace, and the dashboard asks for a sign-in that no longer works.
  expect((await api.get("/trackables")).status).toBe(401);
  await page.goto("/trackables");
  await page.waitForURL("**/sign-in**");
  await page.getByLabel("Email").fill(freshAccount.user.email);
  await page.getByLabel("Password").fill(freshAccount.user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
  errors.expectNone();
});
