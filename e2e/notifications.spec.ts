import { startCapture } from "../tests/support/capture";
import { createGeofenceViaApi, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
// A new, empty account: the test counts the messages its rules produce, so no other spec's geofence or rule may add one.
import { expect, test } from "./support/fresh-account";
import { expectAccessibleAtBothWidths } from "./support/screens";

test("notifications: add a channel and test it, add a rule, see sent and suppressed messages in the log", async ({ page, request }) => {
  const errors = watchConsole(page);
  const capture = await startCapture();
  try {
    const api = apiClient(request, await createApiKey(page, "notifications page"));
    const van = (await api.post("/trackables", { name: "Van 12", type: "vehicle" })).body;
    // Not picked in the rule: its entries must send nothing.
    const other = (await api.post("/trackables", { name: "Van 7", type: "vehicle" })).body;
    await createGeofenceViaApi(api, { name: "Depot", latitude: 52.52, longitude: 13.405, radius: 200 });

    await page.goto("/notifications");
    await expect(page.getByRole("heading", { name: "Notifications", exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Add channel" }).click();
    await page.getByLabel("Type").selectOption("ntfy");
    await page.getByLabel("Name", { exact: true }).fill("Dispatch phones");
    await page.getByLabel("Server URL (optional)").fill(capture.url);
    await page.getByLabel("Topic").fill("fleet-depot");
    await page.getByRole("button", { name: "Add channel", exact: true }).last().click();
    const channel = page.getByTestId("channel-row").filter({ hasText: "Dispatch phones" });
    await expect(channel).toBeVisible();
    await channel.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText('Test sent to "Dispatch phones".')).toBeVisible();
    expect(capture.requests.at(-1)).toMatchObject({ url: "/fleet-depot", headers: { title: "Test notification from Fenceline" } });

    await page.getByRole("button", { name: "Add rule" }).click();
    const form = page.getByRole("form", { name: "New rule" });
    await form.getByLabel("Name", { exact: true }).fill("Depot arrivals");
    await form.getByRole("checkbox", { name: "Entered a geofence" }).check();
    await form.getByRole("checkbox", { name: "Dispatch phones" }).check();
    await form.getByRole("group", { name: "Trackables" }).getByRole("checkbox", { name: "Van 12" }).check();
    await form.getByRole("group", { name: "Geofences" }).getByRole("checkbox", { name: "Depot" }).check();
    await form.getByRole("checkbox", { name: "Only at certain times" }).check();
    await form.getByLabel("Time zone").fill("Europe/Berlin");
    for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]) await form.getByRole("checkbox", { name: day }).check();
    await form.getByLabel("From").fill("00:00");
    await form.getByLabel("To", { exact: true }).fill("00:00");
    await form.getByLabel("Cooldown (seconds)").fill("3600");
    await form.getByRole("button", { name: "Add rule" }).click();
    const ruleRow = page.getByTestId("rule-row").filter({ hasText: "Depot arrivals" });
    await expect(ruleRow).toContainText("Europe/Berlin");
    await expect(ruleRow).toContainText("Only Van 12 · at Depot");

    // Two entries within the hour: the first is sent, the second is held back by the cooldown. Van 7's entry, first
    // of all, matches no rule: the rule's trackable picker left it out.
    const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
    await api.post(`/trackables/${other.id}/locations`, {
      locations: [
        { latitude: 52.53, longitude: 13.405, timestamp: at(80_000) },
        { latitude: 52.5201, longitude: 13.4051, timestamp: at(70_000) },
      ],
    });
    await api.post(`/trackables/${van.id}/locations`, {
      locations: [
        { latitude: 52.53, longitude: 13.405, timestamp: at(60_000) },
        { latitude: 52.5201, longitude: 13.4051, timestamp: at(50_000) },
        { latitude: 52.53, longitude: 13.405, timestamp: at(40_000) },
        { latitude: 52.5201, longitude: 13.4051, timestamp: at(30_000) },
      ],
    });
    await expect.poll(() => capture.requests.filter((r) => r.headers.title === "Van 12 entered Depot").length).toBe(1);
    expect(capture.requests.filter((r) => String(r.headers.title).startsWith("Van 7"))).toEqual([]);
    await expect
      .poll(async () => {
        await page.goto("/notifications?status=sent");
        return page.getByTestId("notification-row").count();
      })
      .toBe(1);
    await expect(page.getByTestId("notification-row")).toContainText("Van 12 entered Depot");
    await page.goto("/notifications");
    await page.getByLabel("Status").selectOption("suppressed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=suppressed/);
    await expect(page.getByTestId("notification-row")).toHaveCount(1);
    await expect(page.getByTestId("notification-row")).toContainText("Cooling down");

    await page.goto("/notifications");
    await expectAccessibleAtBothWidths(page, "notifications");
    errors.expectNone();
  } finally {
    await capture.close();
  }
});
