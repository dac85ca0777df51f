import type { Page } from "@playwright/test";
import { startReceiver } from "../tests/support/receiver";
import { createGeofenceViaApi, northOf, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { expect, test } from "./support/fresh-account";
import { shot } from "./support/screens";

// Each page of the dashboard that shows moving data updates itself within 1 s of a change made through the API (it
// listens to the dashboard's live stream), with no reload: the page keeps the same document (a marker on window
// survives) while its content changes. The margin is for the re-render (a first map loads Leaflet) on a loaded machine.

const LIVE_BUDGET_MS = 1_000;
const MARGIN_MS = 4_000;
const CENTRE = { latitude: 48.8566, longitude: 2.3522 };

/** Marks the document, so the test can tell a re-render from a reload. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

/** Runs `change`, then waits for `seen` within the budget; returns the milliseconds it took (logged in the report). */
async function timed(name: string, change: () => Promise<void>, seen: () => Promise<void>): Promise<number> {
  const started = Date.now();
  await change();
  await seen();
  const ms = Date.now() - started;
  test.info().annotations.push({ type: "live-latency", description: `${name}: ${ms} ms` });
  console.log(`[live-latency] ${name}: ${ms} ms`);
  expect(ms).toBeLessThan(LIVE_BUDGET_MS + MARGIN_MS);
  return ms;
}
const within = { timeout: LIVE_BUDGET_MS + MARGIN_MS };

test("trackables list and fleet map: a first position, then a new battery level, appear without a reload", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "live list"));
  const van = (await api.post("/trackables", { name: "Live van", type: "vehicle" })).body;

  await page.goto("/trackables");
  await expect(page.getByText("Waiting for a first position")).toBeVisible();
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-connected", "true");
  await markDocument(page);

  await timed(
    "trackables: first position",
    async () => expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 80 })).status).toBe(201),
    async () => {
      await expect(page.locator('.leaflet-marker-icon[title="Live van"]')).toBeVisible(within);
      await expect(page.getByTestId("trackable-row").getByTestId("battery")).toContainText("80%", within);
    },
  );
  await expect(page.getByText("Waiting for a first position")).toHaveCount(0);

  // A second trackable appears on the map and in the list; the first one's battery changes.
  const bike = (await api.post("/trackables", { name: "Live bike", type: "bike" })).body;
  await timed(
    "trackables: second marker and battery",
    async () => {
      expect((await api.post(`/trackables/${bike.id}/locations`, { latitude: northOf(CENTRE.latitude, 300), longitude: CENTRE.longitude })).status).toBe(201);
      expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 12 })).status).toBe(201);
    },
    async () => {
      await expect(page.locator('.leaflet-marker-icon[title="Live bike"]')).toBeVisible(within);
      await expect(page.getByTestId("trackable-row").filter({ hasText: "Live van" }).getByTestId("battery")).toContainText("12%", within);
    },
  );
  await expectSameDocument(page);
  errors.expectNone();
});

test("trackable page: the latest position, the track and a geofence entry appear without a reload", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "live trackable"));
  const van = (await api.post("/trackables", { name: "Live courier", type: "vehicle" })).body;
  const outside = { latitude: northOf(CENTRE.latitude, 600), longitude: CENTRE.longitude };
  expect((await api.post(`/trackables/${van.id}/locations`, outside)).status).toBe(201);
  await createGeofenceViaApi(api, { name: "Live depot", ...CENTRE, radius: 150 });

  await page.goto(`/trackables/${van.id}`);
  await expect(page.getByTestId("track-map")).toHaveAttribute("data-point-count", "1");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-connected", "true");
  await markDocument(page);

  await timed(
    "trackable: new latest position and entry event",
    async () => expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, speed: 7.5 })).status).toBe(201),
    async () => {
      await expect(page.getByTestId("track-map")).toHaveAttribute("data-point-count", "2", within);
      await expect(page.getByTestId("latest-details")).toContainText("7.5 m/s", within);
      await expect(page.getByTestId("timeline-event").filter({ hasText: "Entered" })).toContainText("Live depot", within);
      await expect(page.getByTestId("inside-list")).toContainText("Live depot", within);
    },
  );
  await expectSameDocument(page);

  // Deleted elsewhere (here through the API) while the page is open: it turns into the not-found page by itself,
  // with no error in the console (the deletion's notice re-renders it).
  await timed(
    "trackable: deleted elsewhere",
    async () => expect((await api.delete(`/trackables/${van.id}`)).status).toBe(204),
    async () => await expect(page.getByRole("heading", { name: "Not found in this workspace" })).toBeVisible(within),
  );
  errors.expectNone();
});

test("geofences page: who is inside changes without a reload", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "live geofences"));
  const van = (await api.post("/trackables", { name: "Live visitor", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${van.id}/locations`, { latitude: northOf(CENTRE.latitude, 600), longitude: CENTRE.longitude })).status).toBe(201);
  const fence = await createGeofenceViaApi(api, { name: "Live yard", ...CENTRE, radius: 150 });

  await page.goto("/geofences");
  const row = page.locator(`[data-testid="occupancy-row"][data-geofence-id="${fence.id}"]`);
  await expect(row).toContainText("Nobody inside");
  await expect(page.getByTestId("occupancy-panel").getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-connected", "true");
  await markDocument(page);

  await timed(
    "geofences: occupant in",
    async () => expect((await api.post(`/trackables/${van.id}/locations`, CENTRE)).status).toBe(201),
    async () => expect(row.getByTestId("occupant")).toContainText("Live visitor", within),
  );
  await timed(
    "geofences: occupant out",
    async () => expect((await api.post(`/trackables/${van.id}/locations`, { latitude: northOf(CENTRE.latitude, 800), longitude: CENTRE.longitude })).status).toBe(201),
    async () => expect(row).toContainText("Nobody inside", within),
  );
  await expect(row.getByTestId("geofence-events-link")).toHaveAttribute("href", `/events?geofenceId=${fence.id}`);
  await expectSameDocument(page);
  await shot(page, "geofences-occupancy-1280");
  errors.expectNone();
});

test("deliveries list: a new delivery appears and settles without a reload", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "live deliveries"));
  const receiver = await startReceiver({ secret: null, respond: () => ({ status: 200, body: "ok" }) });
  try {
    const van = (await api.post("/trackables", { name: "Live parcel", type: "parcel" })).body;
    expect((await api.post(`/trackables/${van.id}/locations`, { latitude: northOf(CENTRE.latitude, 600), longitude: CENTRE.longitude })).status).toBe(201);
    await createGeofenceViaApi(api, { name: "Live dock", ...CENTRE, radius: 150, notificationType: "webhook", webhookUrl: receiver.url });

    await page.goto("/deliveries");
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");
    await markDocument(page);

    await timed(
      "deliveries: new row",
      async () => expect((await api.post(`/trackables/${van.id}/locations`, CENTRE)).status).toBe(201),
      async () => expect(page.getByTestId("delivery-row").filter({ hasText: "geofence.entry" })).toBeVisible(within),
    );
    await expect(page.getByTestId("delivery-row").getByTestId("delivery-status")).toHaveText("Succeeded", within);
    await expectSameDocument(page);
  } finally {
    await receiver.close();
  }
  errors.expectNone();
});

test("a change made after the server rendered the page and before its stream listens is shown", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "live first poll"));
  const van = (await api.post("/trackables", { name: "Early van", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 70 })).status).toBe(201);

  // The stream's opening is held until the change is committed: the page was rendered with 70 %, and the change made
  // no frame on a stream that did not listen yet. Only the re-render once it listens shows 30 %.
  let held = false;
  await page.route("**/api/internal/stream?*", async (route) => {
    if (!held) {
      held = true;
      expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 30 })).status).toBe(201);
    }
    await route.continue();
  });
  await page.goto("/trackables");
  await expect(page.getByTestId("trackable-row").getByTestId("battery")).toContainText(/70%|30%/);
  await markDocument(page);
  await expect(page.getByTestId("trackable-row").getByTestId("battery")).toContainText("30%", within);
  expect(held).toBe(true);
  await expectSameDocument(page);
  errors.expectNone();
});

test("a hidden tab closes its stream; showing it again reopens it and refreshes at once", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, "live hidden"));
  const van = (await api.post("/trackables", { name: "Hidden van", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 50 })).status).toBe(201);

  // Fake timers: minutes pass in an instant, so "nothing while hidden" is checked over a long time without waiting.
  await page.clock.install();
  const opens: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/internal/stream")) opens.push(r.url());
  });
  await page.goto("/trackables");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "true");
  await page.clock.runFor(5_000);
  expect(opens).toHaveLength(1); // one stream while visible, no polling
  expect(opens[0]).toContain("scope=trackables");

  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "paused");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-connected", "false");
  expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 9 })).status).toBe(201);
  await page.clock.runFor(120_000); // two minutes hidden
  expect(opens).toHaveLength(1);
  await expect(page.getByTestId("trackable-row").getByTestId("battery")).toContainText("50%");

  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  // Visible again: the stream reopens and the page re-renders once it listens.
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("trackable-row").getByTestId("battery")).toContainText("9%");
  expect(opens).toHaveLength(2);
});

test("the live stream needs a session and a known scope", async ({ playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  try {
    expect((await anonymous.get("/api/internal/stream?scope=trackables")).status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }
  const signedIn = await playwright.request.newContext({ baseURL, storageState: "e2e/.auth/user.json" });
  try {
    expect((await signedIn.get("/api/internal/stream?scope=nonsense")).status()).toBe(400);
    expect((await signedIn.get("/api/internal/stream?scope=trackable")).status()).toBe(400);
  } finally {
    await signedIn.dispose();
  }
});
