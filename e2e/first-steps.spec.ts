import { startReceiver } from "../tests/support/receiver";
import { apiClient, createApiKey } from "./support/api";
import { expect, test } from "./support/fresh-account";
import { shot } from "./support/screens";
import { PHONE } from "./support/workspace";

// The checklist on the trackables page ticks itself off from what the new account really holds, step by step.
test("the first-steps checklist ticks itself off as a new account does each step, and can be dismissed", async ({ page }) => {
  const receiver = await startReceiver({ respond: () => ({ status: 500, body: "not yet" }) });
  try {
    const checklist = page.getByTestId("first-steps");
    const step = (id: string) => checklist.locator(`[data-step="${id}"]`);
    const expectDone = async (done: string[]) => {
      await page.goto("/trackables");
      await expect(checklist).toBeVisible();
      for (const id of ["api-key", "trackable", "location", "geofence", "webhook", "test"]) {
        await expect(step(id), id).toHaveAttribute("data-done", String(done.includes(id)));
      }
      await expect(page.getByTestId("first-steps-progress")).toHaveText(`${done.length} of 6 done`);
    };

    await expectDone([]);
    // Each open step links to where it is done.
    await expect(step("api-key").getByRole("link", { name: "Create an API key" })).toHaveAttribute("href", "/api-keys");
    await expect(step("geofence").getByRole("link", { name: "Draw a geofence" })).toHaveAttribute("href", "/geofences?new=1");
    await shot(page, "first-steps-empty-1280");

    // 1. An API key, through the dashboard.
    await step("api-key").getByRole("link", { name: "Create an API key" }).click();
    await page.waitForURL("**/api-keys");
    const api = apiClient(page.request, await createApiKey(page, "first steps"));
    await expectDone(["api-key"]);

    // 2. A trackable; 3. its first location (the step then links to the trackable's page).
    const van = (await api.post("/trackables", { name: "Van 1" })).body;
    await expectDone(["api-key", "trackable"]);
    await expect(step("location").getByRole("link")).toHaveAttribute("href", `/trackables/${van.id}`);
    expect((await api.post(`/trackables/${van.id}/locations`, { latitude: 52.52, longitude: 13.405 })).status).toBe(201);
    await expectDone(["api-key", "trackable", "location"]);

    // 4. A geofence.
    expect((await api.post("/geofences", { name: "Yard", latitude: 52.52, longitude: 13.405, radius: 100 })).status).toBe(201);
    await expectDone(["api-key", "trackable", "location", "geofence"]);

    // 5. A webhook endpoint; 6. a test that fails is not done (and says where to look), one that succeeds is.
    const hook = (await api.post("/webhooks", { url: receiver.url, events: ["geofence.entry"] })).body;
    await expectDone(["api-key", "trackable", "location", "geofence", "webhook"]);
    await expect(step("test").getByRole("link", { name: "Send a test" })).toHaveAttribute("href", `/webhooks/${hook.id}`);
    expect((await api.post(`/webhooks/${hook.id}/test`, {})).body.success).toBe(false);
    await expectDone(["api-key", "trackable", "location", "geofence", "webhook"]);
    await expect(step("test").getByRole("link", { name: /did not reach the endpoint/ })).toHaveAttribute("href", /^\/deliveries\//);
    receiver.setResponder(() => ({ status: 200, body: "ok" }));
    expect((await api.post(`/webhooks/${hook.id}/test`, {})).body.success).toBe(true);

    await page.goto("/trackables");
    await expect(checklist.getByRole("heading", { name: "You are all set" })).toBeVisible();
    await expect(page.getByTestId("first-steps-progress")).toHaveText(/^6 of 6 done/);
    await shot(page, "first-steps-done-1280");

    // Dismissed: gone, and still gone after a reload.
    await checklist.getByRole("button", { name: "Dismiss" }).click();
    await expect(checklist).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Trackables" })).toBeVisible();
    await expect(checklist).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });
  test("the checklist of a new account fits a 390 px screen", async ({ page }) => {
    await page.goto("/trackables");
    await expect(page.getByTestId("first-steps")).toBeVisible();
    await expect(page.getByTestId("first-step")).toHaveCount(6);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "first-steps-empty-390");
  });
});
