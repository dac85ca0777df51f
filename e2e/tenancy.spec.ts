import { expect, test } from "@playwright/test";
import { startReceiver } from "../tests/support/receiver";
import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
import { signUpFresh } from "./support/fresh-account";

// A user only ever sees their own workspace: another workspace's ids, pasted into the dashboard, look like unknown ones.
test("another workspace's trackable, geofence, webhook endpoint and delivery are not found", async ({ page, request, browser }) => {
  const api = apiClient(request, await createApiKey(page, "tenancy owner"));
  const trackable = (await api.post("/trackables", { name: "Owner's van", type: "vehicle" })).body;
  const receiver = await startReceiver({ secret: null });
  try {
    const fence = (
      await api.post("/geofences", {
        name: "Owner's depot",
        latitude: 51.5,
        longitude: -0.12,
        radius: 250,
        notificationType: "webhook",
        webhookUrl: receiver.url,
      })
    ).body;
    const endpoint = (await api.post("/webhooks", { url: receiver.url, events: ["location.updated"] })).body;
    const test = await api.post(`/geofences/${fence.id}/test-webhook`, { eventType: "entry" });
    expect(test.body.success).toBe(true);

    const other = await signUpFresh(browser);
    for (const path of [`/trackables/${trackable.id}`, `/webhooks/${endpoint.id}`, `/deliveries/${test.body.deliveryId}`]) {
      const res = await other.page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(other.page.getByRole("heading", { name: "Not found in this workspace" }), path).toBeVisible();
      await expect(other.page.locator("main"), path).not.toContainText("Owner's");
    }
    // From here on no console errors (the 404 documents above log their status, as browsers do).
    const errors = watchConsole(other.page);
    // The editor opens on the other workspace's own (empty) list: nothing of the owner's geofence, not even its name.
    await other.page.goto(`/geofences?geofence=${fence.id}`);
    await expect(other.page.getByRole("heading", { level: 1, name: "Geofences" })).toBeVisible();
    await expect(other.page.locator("main")).not.toContainText("Owner's depot");
    await expect(other.page.getByLabel("Name")).toHaveCount(0);
    for (const path of ["/trackables", "/deliveries", "/webhooks"]) {
      await other.page.goto(path);
      await expect(other.page.locator("main"), path).not.toContainText("Owner's");
      await expect(other.page.locator("main"), path).not.toContainText(receiver.url);
    }
    errors.expectNone();
    await other.context.close();
  } finally {
    await receiver.close();
  }
});
