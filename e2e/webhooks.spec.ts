import { expect, test, type Page } from "@playwright/test";
import { startReceiver, verifyStandard } from "../tests/support/receiver";
import { createGeofenceViaApi, metresPerPixel, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { shot } from "./support/screens";

test("account endpoints: create with a secret, receive an event, disable, edit, delete", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "webhooks page"));
  const secret = "endpoint_secret_0001";
  const receiver = await startReceiver({ secret });
  try {
    await page.goto("/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
    await page.getByRole("link", { name: /Add (your first )?endpoint/ }).first().click();
    await expect(page.getByRole("heading", { name: "New endpoint" })).toBeVisible();

    // Errors next to the fields: a refused URL and no event kind.
    await page.getByLabel("Endpoint URL").fill("ftp://example.com/x");
    await page.getByRole("checkbox", { name: /geofence\.entry/ }).uncheck();
    await page.getByRole("checkbox", { name: /geofence\.exit/ }).uncheck();
    await page.getByRole("button", { name: "Create endpoint" }).click();
    await expect(page.locator("#wh-url-error")).toContainText("must use http or https");
    await expect(page.locator("#wh-events-error")).toHaveText("Events must list at least one event kind.");
    await shot(page, "webhook-new-errors");

    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByLabel("Description").fill("Dispatch CRM");
    await page.getByRole("checkbox", { name: /geofence\.entry/ }).check();
    await page.getByRole("checkbox", { name: /location\.updated/ }).check();
    await page.getByRole("button", { name: "Set a secret" }).click();
    await page.getByLabel("New signing secret").fill(secret);
    await page.getByRole("button", { name: "Create endpoint" }).click();
    await expect(page.getByText("Endpoint created.")).toBeVisible();
    await expect(page.getByTestId("wh-secret-status")).toHaveText("Set");
    await expect(page.getByLabel("New signing secret")).toHaveCount(0);

    const endpoint = (await api.get("/webhooks")).body.data.find((w: { url: string }) => w.url === receiver.url);
    expect(endpoint).toMatchObject({ url: receiver.url, description: "Dispatch CRM", events: ["geofence.entry", "location.updated"], enabled: true, secretSet: true });

    // A location sends location.updated to the endpoint, signed with its secret.
    const tram = (await api.post("/trackables", { name: "Tram 4" })).body;
    await api.post(`/trackables/${tram.id}/locations`, { latitude: 1, longitude: 1 });
    const [hit] = await receiver.waitFor(1);
    expect(hit!.headers["x-service-event"]).toBe("location.updated");
    expect(hit!.signatureValid).toBe(true);

    await page.goto("/webhooks");
    const row = page.getByTestId("webhook-row").filter({ hasText: receiver.url });
    await expect(row).toContainText("Dispatch CRM");
    await expect(row).toContainText("Signed");
    await shot(page, "webhooks-list");
    const toggle = row.getByRole("switch");
    await expect(toggle).toBeChecked();
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect(row).toContainText("Disabled");
    await expect.poll(async () => (await api.get(`/webhooks/${endpoint.id}`)).body.enabled).toBe(false);
    await page.reload();
    await expect(page.getByTestId("webhook-row").filter({ hasText: receiver.url }).getByRole("switch")).not.toBeChecked();

    await row.getByRole("link", { name: receiver.url }).click();
    await page.getByLabel("Description").fill("Dispatch CRM (staging)");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    expect((await api.get(`/webhooks/${endpoint.id}`)).body.description).toBe("Dispatch CRM (staging)");
    await shot(page, "webhook-edit");

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByTestId("webhook-row").filter({ hasText: receiver.url })).toHaveCount(0);
    expect((await api.get(`/webhooks/${endpoint.id}`)).status).toBe(404);
    errors.expectNone();
  } finally {
    await receiver.close();
  }
});

/** Nothing is wider than the phone's 390 px (tables and code scroll inside their cards). */
async function fitsScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("editor, webhooks, deliveries and a delivery fit a 390 px screen", async ({ page, request }) => {
    const errors = watchConsole(page);
    const api = apiClient(request, await createApiKey(page, "phone"));
    const receiver = await startReceiver();
    try {
      const fence = await createGeofenceViaApi(api, { name: "Phone depot", notificationType: "webhook", webhookUrl: receiver.url });
      const sent = (await api.post(`/geofences/${fence.id}/test-webhook`, { eventType: "entry" })).body;
      expect(sent.success).toBe(true);

      await page.goto(`/geofences?geofence=${fence.id}`);
      await expect(page.getByLabel("Name")).toHaveValue("Phone depot");
      await expect(page.getByTestId("geofence-map")).toBeVisible();
      await fitsScreen(page);
      await shot(page, "phone-geofence-editor");
      await page.goto("/geofences?new=1");
      await expect(page.getByText(/Press on the map for the centre/)).toBeVisible();
      await fitsScreen(page);
      await shot(page, "phone-geofence-drawing");
      // Draw with one finger: real touch events through the browser's input pipeline.
      const map = page.getByTestId("geofence-map");
      await expect(map).toHaveAttribute("data-zoom", /\d+/);
      let zoom = Number(await map.getAttribute("data-zoom"));
      while (zoom < 13) {
        await page.getByRole("button", { name: "Zoom in" }).tap();
        await expect(map).toHaveAttribute("data-zoom", String(zoom + 1));
        zoom += 1;
      }
      const box = (await map.boundingBox())!;
      const at = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
      const cdp = await page.context().newCDPSession(page);
      const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number) =>
        cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y: at.y }] });
      await touch("touchStart", at.x);
      for (const dx of [20, 40, 60, 80]) await touch("touchMove", at.x + dx);
      await touch("touchEnd", at.x + 80);
      await expect(map).toHaveAttribute("data-drawing", "false");
      const lat = Number(await page.getByLabel("Latitude").inputValue());
      const radius = Number(await page.getByLabel("Radius (metres)").inputValue());
      const expected = 80 * metresPerPixel(lat, zoom);
      expect(Math.abs(radius - expected) / expected).toBeLessThan(0.05);
      await page.goto("/webhooks");
      await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
      await fitsScreen(page);
      await shot(page, "phone-webhooks");
      await page.goto("/deliveries");
      await expect(page.getByTestId("delivery-row").first()).toBeVisible();
      await fitsScreen(page);
      await shot(page, "phone-deliveries");
      await page.goto(`/deliveries/${sent.deliveryId}`);
      await expect(page.getByTestId("delivery-status")).toHaveText("Succeeded");
      await fitsScreen(page);
      await shot(page, "phone-delivery-detail");
      errors.expectNone();
    } finally {
      await receiver.close();
    }
  });
});

test("a switched-off endpoint: banner, re-enable, send test, rotate, recover; Copy on a generated secret", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "endpoint tools"));
  let status = 410;
  const receiver = await startReceiver({ respond: () => ({ status }) });
  try {
    const before = new Date(Date.now() - 60_000);
    const endpoint = (await api.post("/webhooks", { url: receiver.url, events: ["location.updated"], secret: "an-old-secret-123" })).body;
    const van = (await api.post("/trackables", { name: "Van 9" })).body;
    await api.post(`/trackables/${van.id}/locations`, { latitude: 1, longitude: 1 });
    await expect.poll(async () => (await api.get(`/webhooks/${endpoint.id}`)).body.disabledReason).toBe("gone");

    await page.goto("/webhooks");
    await expect(page.getByTestId("webhook-row").filter({ hasText: receiver.url })).toContainText("Switched off: 410 Gone");
    await page.goto(`/webhooks/${endpoint.id}`);
    const banner = page.getByTestId("disabled-banner");
    await expect(banner).toContainText("It answered 410 Gone");
    await shot(page, "webhook-switched-off");

    // A failed test links to its delivery.
    status = 500;
    await page.getByLabel("Event to send").selectOption("battery.low");
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText(/Test webhook for battery\.low event failed \(HTTP 500\)/)).toBeVisible();
    await page.getByRole("link", { name: "View the failed delivery" }).click();
    await expect(page.getByTestId("delivery-status")).toHaveText("Failed");
    await page.goBack();

    status = 200;
    await page.getByRole("button", { name: "Re-enable" }).click();
    await expect(banner).toHaveCount(0);
    await expect.poll(async () => (await api.get(`/webhooks/${endpoint.id}`)).body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });

    // Rotate: the new secret is shown once, with Copy and when the old one stops working.
    await page.getByLabel("How long the current secret keeps working").selectOption("86400");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const secret = (await page.getByTestId("new-secret").textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(page.getByRole("button", { name: "Copy new secret" })).toBeVisible();
    await expect(page.getByTestId("previous-expiry")).toContainText("The previous secret stops working at");
    await shot(page, "webhook-rotated");
    await page.getByLabel("Event to send").selectOption("device.status_changed");
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText("Test webhook sent for device.status_changed event")).toBeVisible();
    const test = receiver.received.at(-1)!;
    expect(verifyStandard(test, secret)).toBe(true);
    expect(verifyStandard(test, "an-old-secret-123")).toBe(true);

    // Recover: the delivery that got the 410 is sent again (the failed test is not).
    const seen = receiver.received.length;
    await page.getByLabel("Recover failed deliveries since", { exact: true }).fill(localInput(before));
    await page.getByRole("button", { name: "Recover" }).click();
    await expect(page.getByText("1 failed delivery sent again.")).toBeVisible();
    const [again] = (await receiver.waitFor(seen + 1)).slice(seen);
    expect(again!.json).toMatchObject({ event: "location.updated", beacon: { id: van.id } });
    await shot(page, "webhook-tools");

    // Copy beside a generated secret.
    await page.getByRole("button", { name: "Replace secret" }).click();
    await page.getByRole("button", { name: "Generate" }).click();
    await expect(page.getByLabel("New signing secret")).toHaveValue(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(page.getByRole("button", { name: "Copy secret" })).toBeVisible();
    errors.expectNone();
  } finally {
    await receiver.close();
  }
});

test.describe("an endpoint's tools on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the switched-off banner and the tools fit a 390 px screen", async ({ page, request }) => {
    const errors = watchConsole(page);
    const api = apiClient(request, await createApiKey(page, "phone tools"));
    const receiver = await startReceiver({ respond: () => ({ status: 410 }) });
    try {
      const endpoint = (await api.post("/webhooks", { url: receiver.url, events: ["location.updated"], secret: "an-old-secret-123" })).body;
      const van = (await api.post("/trackables", { name: "Van 10" })).body;
      await api.post(`/trackables/${van.id}/locations`, { latitude: 1, longitude: 1 });
      await expect.poll(async () => (await api.get(`/webhooks/${endpoint.id}`)).body.enabled).toBe(false);
      await page.goto(`/webhooks/${endpoint.id}`);
      await expect(page.getByTestId("disabled-banner")).toBeVisible();
      await page.getByRole("button", { name: "Rotate secret" }).tap();
      await expect(page.getByTestId("new-secret")).toHaveText(/^whsec_/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, "phone-webhook-tools");
      errors.expectNone();
    } finally {
      await receiver.close();
    }
  });
});

const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
