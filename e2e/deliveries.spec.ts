import { expect, test } from "@playwright/test";
import { startReceiver } from "../tests/support/receiver";
import { createGeofenceViaApi, northOf, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { shot } from "./support/screens";

const CENTRE = { latitude: 45.764, longitude: 4.8357 };
const SECRET = "e2e_deliveries_secret_42";
// Unique per test run: a reused server keeps the trackables of earlier runs, and the editor lists them by name.
const VAN = `Van ${Date.now().toString(36).slice(-5)}`;

test("a trackable assigned in the editor enters the geofence: the delivery appears, succeeds and shows its attempt", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "entry delivery"));
  // A slow receiver keeps the delivery pending for a few seconds, long enough to watch the page refresh itself.
  const receiver = await startReceiver({ secret: SECRET, respond: () => ({ status: 200, body: '{"received":true}', delayMs: 5000 }) });
  try {
    const van = (await api.post("/trackables", { name: VAN, type: "vehicle" })).body;
    const spare = (await api.post("/trackables", { name: "Spare bike", type: "bike" })).body;
    const fence = await createGeofenceViaApi(api, {
      name: "Lyon yard",
      ...CENTRE,
      radius: 150,
      notificationType: "webhook",
      webhookUrl: receiver.url,
      webhookSecret: SECRET,
    });

    // Assign only the van, through the editor.
    await page.goto(`/geofences?geofence=${fence.id}`);
    await page.getByLabel("All trackables, including ones added later").uncheck();
    await page.getByRole("checkbox", { name: new RegExp(VAN) }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    expect((await api.get(`/geofences/${fence.id}`)).body.trackableIds).toEqual([van.id]);

    expect((await api.post(`/trackables/${van.id}/locations`, { latitude: northOf(CENTRE.latitude, 400), longitude: CENTRE.longitude })).status).toBe(201);
    expect((await api.post(`/trackables/${spare.id}/locations`, CENTRE)).status).toBe(201); // not assigned: no event
    expect((await api.post(`/trackables/${van.id}/locations`, CENTRE)).status).toBe(201);

    await page.goto(`/deliveries?geofence=${fence.id}`);
    const row = page.getByTestId("delivery-row").filter({ hasText: "geofence.entry" });
    await expect(async () => {
      await page.reload();
      await expect(row).toHaveCount(1, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(row.getByTestId("delivery-status")).toHaveText("Pending");
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
    await shot(page, "deliveries-pending");
    // No reload from here on: the page refreshes itself until nothing is pending.
    await expect(row.getByTestId("delivery-status")).toHaveText("Succeeded", { timeout: 20_000 });
    await expect(row).toContainText(VAN);
    await expect(row).toContainText("Lyon yard");
    await expect(page.getByTestId("delivery-row")).toHaveCount(1); // the spare bike is not assigned
    await shot(page, "deliveries-list");

    const [hit] = await receiver.waitFor(1);
    expect(hit!.signatureValid).toBe(true);

    await row.getByRole("link", { name: "geofence.entry" }).click();
    await expect(page.getByRole("heading", { name: "geofence.entry" })).toBeVisible();
    await expect(page.getByTestId("delivery-id")).toHaveText(String(hit!.headers["x-service-delivery"]));
    const payload = JSON.parse((await page.getByTestId("delivery-payload").textContent()) ?? "{}");
    expect(payload).toEqual(hit!.json);
    expect(payload).toMatchObject({ event: "geofence.entry", geofence: { id: fence.id, name: "Lyon yard" }, beacon: { id: van.id, name: VAN } });
    const attempt = page.getByTestId("delivery-attempt");
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText("Attempt 1");
    await expect(attempt).toContainText("200");
    await expect(attempt).toContainText('{"received":true}');
    await shot(page, "delivery-detail");
    errors.expectNone();
  } finally {
    await receiver.close();
  }
});

test("a failing receiver: attempts accumulate with the next retry shown, then redeliver succeeds", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "failing delivery"));
  const receiver = await startReceiver({ respond: () => ({ status: 500, body: "upstream exploded" }) });
  try {
    const bike = (await api.post("/trackables", { name: "Courier bike", type: "bike" })).body;
    const fence = await createGeofenceViaApi(api, {
      name: "Flaky hub",
      latitude: 40.4168,
      longitude: -3.7038,
      radius: 100,
      notificationType: "webhook",
      webhookUrl: receiver.url,
      trackableIds: [bike.id],
    });
    await api.post(`/trackables/${bike.id}/locations`, { latitude: 40.4168, longitude: -3.7038 });

    await page.goto(`/deliveries?geofence=${fence.id}&event=geofence.entry`);
    const row = page.getByTestId("delivery-row");
    await expect(async () => {
      await page.reload();
      await expect(row).toHaveCount(1, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await row.getByRole("link", { name: "geofence.entry" }).click();

    // Retries after 1 s, 2 s and 3 s (the suite's WEBHOOK_RETRY_DELAYS): the page follows them by itself.
    await expect(page.getByTestId("delivery-status")).toHaveText("Pending");
    // The next retry as a countdown in seconds ("in 2 seconds"), its UTC instant on the <time>.
    await expect(page.getByTestId("next-retry")).toContainText(/in \d+ seconds?|now/);
    await expect(page.getByTestId("next-retry").locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    await expect.poll(() => page.getByTestId("delivery-attempt").count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await shot(page, "delivery-retrying");
    await expect(page.getByTestId("delivery-status")).toHaveText("Failed", { timeout: 20_000 });
    await expect(page.getByTestId("delivery-attempt")).toHaveCount(4);
    await expect(page.getByTestId("next-retry")).toHaveCount(0);
    await expect(page.getByTestId("delivery-attempt").first()).toContainText("upstream exploded");
    await shot(page, "delivery-failed");
    expect(receiver.received).toHaveLength(4);

    receiver.setResponder(() => ({ status: 204 }));
    const failedUrl = page.url();
    await page.getByRole("button", { name: "Redeliver" }).click();
    await expect(page).not.toHaveURL(failedUrl);
    await expect(page).toHaveURL(/\/deliveries\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("delivery-status")).toHaveText("Succeeded", { timeout: 15_000 });
    await expect(page.getByTestId("delivery-attempt")).toHaveCount(1);
    const redelivered = receiver.received[4]!;
    expect(redelivered.body).toBe(receiver.received[0]!.body);
    expect(redelivered.headers["x-service-delivery"]).not.toBe(receiver.received[0]!.headers["x-service-delivery"]);

    await page.goto(`/deliveries?geofence=${fence.id}&status=failed`);
    await expect(page.getByLabel("Status")).toHaveValue("failed");
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    await expect(page.getByTestId("delivery-row").getByTestId("delivery-attempts")).toHaveText("4");
    await page.getByLabel("Status").selectOption("succeeded");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=succeeded/);
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    await expect(page.getByTestId("delivery-row").getByTestId("delivery-status")).toHaveText("Succeeded");
    errors.expectNone();
  } finally {
    await receiver.close();
  }
});
