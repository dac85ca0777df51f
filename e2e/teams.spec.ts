import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
import { expect, test } from "./support/fresh-account";
import { expectAccessibleAtBothWidths } from "./support/screens";
import { newUser } from "./support/user";

// A team: the owner invites a viewer by email; the link, opened in another browser, signs a new user up and joins.
// The viewer sees the map but no API keys page and no buttons that would change anything; they switch between the
// team's workspace and their own.
test("invite a viewer, who joins from the link as a new user, sees the map without write buttons, and switches workspace", async ({ page, request, browser, freshAccount }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  const key = await createApiKey(page, "e2e teams");
  const api = apiClient(request, key);
  const van = (await api.post("/trackables", { name: "Team van", type: "vehicle" })).body as { id: string };
  expect((await api.post(`/trackables/${van.id}/locations`, { latitude: 52.52, longitude: 13.405 })).status).toBe(201);
  const team = (await api.get("/account")).body.name as string;

  // The owner invites; the link is shown once.
  await page.goto("/account");
  const invite = page.getByRole("region", { name: "Invite someone" });
  const viewer = { ...newUser(), name: "Grace Hopper", email: `viewer+${Date.now().toString(36)}@example.com` };
  await invite.getByLabel("Email").fill(viewer.email);
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("invitation-link").textContent())!.trim();
  expect(link).toMatch(/\/invitations\/[\w-]{43}$/);
  await expect(page.getByTestId("invitation-row").filter({ hasText: viewer.email })).toContainText("as Viewer");
  await expectAccessibleAtBothWidths(page, "teams-account-owner");

  // A second browser: the link, then sign-up with the invited address filled in, then back to join.
  const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const guest = await other.newPage();
  const guestErrors = watchConsole(guest);
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: `Join “${team}”` })).toBeVisible();
  await expectAccessibleAtBothWidths(guest, "teams-invitation");
  await guest.getByRole("link", { name: "Create an account to join" }).click();
  await expect(guest.getByLabel("Email")).toHaveValue(viewer.email);
  await guest.getByLabel("Name").fill(viewer.name);
  await guest.getByLabel("Password").fill(viewer.password);
  await guest.getByRole("button", { name: "Create account" }).click();
  await guest.waitForURL(`**${new URL(link).pathname}`);
  await guest.getByRole("button", { name: "Join the workspace" }).click();
  await guest.waitForURL("**/trackables");

  // The viewer: the team's map and list, no write buttons, no API keys.
  const sidebar = guest.getByRole("complementary");
  await expect(sidebar.getByText(team, { exact: true })).toBeVisible();
  await expect(guest.getByRole("region", { name: "Map of trackables" }).locator('.fl-marker[title="Team van"]')).toBeVisible();
  await expect(guest.getByTestId("trackable-row").filter({ hasText: "Team van" })).toBeVisible();
  await expect(guest.getByRole("button", { name: "New trackable" })).toHaveCount(0);
  await expect(guest.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(guest.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await expectAccessibleAtBothWidths(guest, "teams-viewer-trackables");
  await guest.goto(`/trackables/${van.id}`);
  await expect(guest.getByRole("heading", { name: "Team van" })).toBeVisible();
  await expect(guest.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(guest.getByRole("region", { name: "Share live location" })).toHaveCount(0);
  await guest.goto("/geofences");
  await expect(guest.getByRole("heading", { name: "Geofences", level: 1 })).toBeVisible();
  await expect(guest.getByRole("button", { name: "New geofence" })).toHaveCount(0);
  await guest.goto("/api-keys");
  await expect(guest.getByRole("heading", { name: "You need the admin role" })).toBeVisible();
  await expectAccessibleAtBothWidths(guest, "teams-viewer-forbidden");

  // The owner's members list shows the viewer.
  await page.goto("/account");
  await expect(page.getByTestId("member-row").filter({ hasText: viewer.email })).toContainText("Viewer");

  // The viewer switches to the workspace they own (made at sign-up) and back.
  await guest.goto("/trackables");
  const switcher = guest.getByLabel("Switch workspace");
  const own = (await switcher.locator("option").filter({ hasText: "(Owner)" }).getAttribute("value"))!;
  await switcher.selectOption(own);
  await expect(sidebar.getByText(team, { exact: true })).toHaveCount(0);
  await expect(guest.getByRole("button", { name: "New trackable" }).first()).toBeVisible();
  await expect(guest.getByRole("link", { name: "API keys" }).first()).toBeVisible();
  await expectAccessibleAtBothWidths(guest, "teams-viewer-own-workspace");
  await guest.getByLabel("Switch workspace").selectOption({ label: `${team} (Viewer)` });
  await expect(sidebar.getByText(team, { exact: true })).toBeVisible();
  await expect(guest.getByRole("button", { name: "New trackable" })).toHaveCount(0);

  await other.close();
  errors.expectNone();
  // The one error the guest's console may hold: the 403 of the API keys page the viewer was refused.
  expect(guestErrors.errors.filter((e) => !/status of 403 .*\/api-keys\)$/.test(e))).toEqual([]);
  void freshAccount;
});
