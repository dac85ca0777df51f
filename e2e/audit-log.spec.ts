import { apiClient, createApiKey } from "./support/api";
import { expect, test } from "./support/fresh-account";
import { expectAccessibleAtBothWidths } from "./support/screens";

test("a change made through the API shows on the audit log page, with its key, its fields and no secret", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, "Audit e2e key"));
  const fence = (await api.post("/geofences", { name: "Audit yard", latitude: 41.3851, longitude: 2.1734, radius: 100 })).body;
  expect((await api.patch(`/geofences/${fence.id}`, { radius: 250, webhookSecret: "whsec-not-for-your-eyes" })).status).toBe(200);

  await page.goto("/trackables");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  const updated = page.locator('[data-testid="audit-row"][data-action="geofence.updated"]');
  await expect(updated).toHaveCount(1);
  await expect(updated.getByRole("list", { name: "Changes" })).toContainText("radius: 100 → 250");
  await expect(updated.getByRole("list", { name: "Changes" })).toContainText("webhookSecret: — → [redacted]");
  await expect(updated.getByText("Audit e2e key").filter({ visible: true })).toHaveCount(1);
  // The key was made on the dashboard: its entry names the signed-in user.
  await expect(page.locator('[data-testid="audit-row"][data-action="apiKey.created"]').getByText(/^User/).filter({ visible: true })).toHaveCount(1);
  await expect(page.locator("body")).not.toContainText("whsec-not-for-your-eyes");

  await page.getByLabel("Action").selectOption("geofence.updated");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=geofence.updated/);
  await expect(page.getByTestId("audit-row")).toHaveCount(1);

  await expectAccessibleAtBothWidths(page, "audit-log");
});
