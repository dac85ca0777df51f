import { apiClient } from "./support/api";
import { watchConsole } from "./support/console";
import { expect, test } from "./support/fresh-account";
import { shot } from "./support/screens";
import { adminRequest, adminSocketPath } from "../lib/http/admin-socket";
import { adminToken, e2eServer } from "./support/server";

// A workspace on the free plan: every webhook control is disabled or replaced by an explanation, and the API agrees.
test("the free plan explains webhooks instead of offering them", async ({ page, request }) => {
  const errors = watchConsole(page);
  await page.goto("/account");
  const slug = (await page.getByTestId("account-slug").textContent())!;

  // What `npm run apikey:create -- --account <slug> --plan free` does: moves the workspace to free, with a new key.
  const provisioned = await adminRequest(adminSocketPath(e2eServer.dataDir), adminToken(), "POST", "/api-keys", {
    account: slug,
    plan: "free",
    name: "free plan check",
  });
  expect(provisioned.status, provisioned.text).toBe(201);
  const api = apiClient(request, (provisioned.body as { key: string }).key);

  await page.reload();
  await expect(page.getByTestId("account-plan")).toHaveText("Free");
  await expect(page.getByTestId("plan-badge")).toHaveText("Free");

  for (const path of ["/webhooks", "/webhooks/new", "/deliveries"]) {
    await page.goto(path);
    await expect(page.getByTestId("plan-required"), path).toContainText("Webhooks need the Enterprise plan");
  }
  await shot(page, "free-plan-deliveries");

  const fence = await api.post("/geofences", { name: "Depot", latitude: 48.85, longitude: 2.35, radius: 300 });
  expect(fence.status).toBe(201);
  await page.goto(`/geofences?geofence=${fence.body.id}`);
  const notifications = page.getByRole("group", { name: "Notifications" });
  await expect(notifications).toContainText("Webhooks need the Enterprise plan");
  await expect(notifications.getByRole("radio", { name: "Webhook", includeHidden: true })).toBeDisabled();
  await expect(notifications.getByRole("radio", { name: "None", includeHidden: true })).toBeDisabled();
  await shot(page, "free-plan-geofence");

  // The API refuses the same features with 403 plan_required.
  for (const res of [
    await api.get("/webhooks"),
    await api.get("/webhook-deliveries"),
    await api.post(`/geofences/${fence.body.id}/test-webhook`, { eventType: "entry" }),
    await api.patch(`/geofences/${fence.body.id}`, { notificationType: "webhook", webhookUrl: "https://example.com/hook" }),
  ]) {
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("plan_required");
  }
  errors.expectNone();
});
