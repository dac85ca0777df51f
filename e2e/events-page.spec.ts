import { createGeofenceViaApi, northOf, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { expect, test } from "./support/fresh-account";
import { shot } from "./support/screens";

const CENTRE = { latitude: 41.3851, longitude: 2.1734 };
const FAR = { latitude: 41.4036, longitude: 2.1744 };
const HOUR = 3600_000;

// <input type="datetime-local"> is in the browser's zone: the test runner and the browser share the machine's.
const localInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

test("the events page filters by trackable, geofence, type and a local time range", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "events page"));
  const base = new Date(Math.floor((Date.now() - 6 * HOUR) / 60_000) * 60_000);
  const at = (h: number) => new Date(base.getTime() + h * HOUR).toISOString();

  const a = (await api.post("/trackables", { name: "Events van", type: "vehicle" })).body;
  const b = (await api.post("/trackables", { name: "Events bike", type: "bike" })).body;
  // These walks jump hundreds of metres at once: with a trip threshold beyond them they make no trips, only the
  // geofence, battery and status events this page is checked with.
  for (const t of [a, b]) expect((await api.patch(`/trackables/${t.id}`, { motion: { minTripDistance: 100_000 } })).status).toBe(200);
  const yard = await createGeofenceViaApi(api, { name: "Events yard", ...CENTRE, radius: 150 });
  await createGeofenceViaApi(api, { name: "Events park", ...FAR, radius: 150 });

  // The van: outside, into the yard (+1 h), out again with a low battery (+2 h); the bike: first seen in the park (+3 h).
  expect((await api.post(`/trackables/${a.id}/locations`, { latitude: northOf(CENTRE.latitude, 600), longitude: CENTRE.longitude, timestamp: at(0) })).status).toBe(201);
  expect((await api.post(`/trackables/${a.id}/locations`, { ...CENTRE, timestamp: at(1) })).status).toBe(201);
  expect((await api.post(`/trackables/${a.id}/locations`, { latitude: northOf(CENTRE.latitude, 600), longitude: CENTRE.longitude, battery: 10, timestamp: at(2) })).status).toBe(201);
  expect((await api.post(`/trackables/${b.id}/locations`, { ...FAR, timestamp: at(3) })).status).toBe(201);
  // Each trackable also came online (device.status_changed, at the server's time): 6 events in all.
  await expect.poll(async () => (await api.get("/events?limit=100")).body.data.length, { timeout: 15_000 }).toBe(6);

  await page.goto("/trackables");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Events" }).click();
  await expect(page).toHaveURL(/\/events$/);
  const rows = page.getByTestId("event-row");
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toHaveAttribute("data-type", "device.status_changed"); // newest first

  // By trackable.
  await page.getByLabel("Trackable").selectOption({ label: "Events bike" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`trackableId=${b.id}`));
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "Entered" })).toContainText("Events park");

  // By geofence (the trackable filter cleared).
  await page.goto(`/events?geofenceId=${yard.id}`);
  await expect(page.getByLabel("Geofence")).toHaveValue(yard.id);
  await expect(rows).toHaveCount(2);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-type")))).toEqual(["geofence.exit", "geofence.entry"]);
  await expect(rows.first()).toContainText("Events van");

  // By type, on top of the geofence.
  await page.getByLabel("Type").selectOption("geofence.exit");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute("data-type", "geofence.exit");

  // By type alone.
  await page.goto("/events?type=battery.low");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Battery low");

  // A time range typed in local time: from +30 min to +1 h 30 min holds the entry only.
  await page.goto("/events");
  await page.getByLabel("From", { exact: true }).fill(localInput(new Date(base.getTime() + 0.5 * HOUR)));
  await page.getByLabel("To", { exact: true }).fill(localInput(new Date(base.getTime() + 1.5 * HOUR)));
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${encodeURIComponent(new Date(base.getTime() + 0.5 * HOUR).toISOString())}`));
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute("data-type", "geofence.entry");
  await expect(rows.getByTestId("event-time")).toHaveAttribute("title", at(1));
  // The inputs show the range back in local time after the round trip.
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(localInput(new Date(base.getTime() + 0.5 * HOUR)));

  errors.expectNone();
});

test("the events page pages by keyset, keeping its filters", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "events pages"));
  const base = new Date(Date.now() - 6 * HOUR);
  // 30 battery dips of one trackable: two pages of 25 with the filters kept.
  const c = (await api.post("/trackables", { name: "Events sensor", type: "sensor" })).body;
  const dips = [];
  for (let i = 0; i < 30; i++) {
    dips.push({ ...CENTRE, battery: 50, timestamp: new Date(base.getTime() + 4 * HOUR + i * 120_000).toISOString() });
    dips.push({ ...CENTRE, battery: 5, timestamp: new Date(base.getTime() + 4 * HOUR + i * 120_000 + 60_000).toISOString() });
  }
  expect((await api.post(`/trackables/${c.id}/locations`, { locations: dips })).status).toBe(201);
  await expect.poll(async () => (await api.get(`/events?type=battery.low&trackableId=${c.id}&limit=100`)).body.data.length, { timeout: 15_000 }).toBe(30);
  await page.goto(`/events?trackableId=${c.id}&type=battery.low`);
  const rows = page.getByTestId("event-row");
  await expect(rows).toHaveCount(25);
  const firstPage = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-event-id")));
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page).toHaveURL(new RegExp(`trackableId=${c.id}`));
  await expect(rows).toHaveCount(5);
  const secondPage = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-event-id")));
  expect(new Set([...firstPage, ...secondPage]).size).toBe(30);
  await expect(page.getByRole("link", { name: "Older →" })).toHaveCount(0);
  await page.getByRole("link", { name: "← Newest" }).click();
  await expect(rows).toHaveCount(25);

  errors.expectNone();
});

test("the trackable page and the geofences page link to their events", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, "events links"));
  const van = (await api.post("/trackables", { name: "Linked van", type: "vehicle" })).body;
  const fence = await createGeofenceViaApi(api, { name: "Linked yard", ...CENTRE, radius: 150 });
  expect((await api.post(`/trackables/${van.id}/locations`, CENTRE)).status).toBe(201);

  await page.goto(`/trackables/${van.id}`);
  await page.getByTestId("all-events-link").click();
  await expect(page).toHaveURL(new RegExp(`/events\\?trackableId=${van.id}$`));
  await expect(page.getByLabel("Trackable")).toHaveValue(van.id);
  await expect(page.getByTestId("event-row").filter({ hasText: "Entered" })).toContainText("Linked yard");

  await page.goto("/geofences");
  await page.locator(`[data-testid="occupancy-row"][data-geofence-id="${fence.id}"]`).getByTestId("geofence-events-link").click();
  await expect(page).toHaveURL(new RegExp(`/events\\?geofenceId=${fence.id}$`));
  await expect(page.getByTestId("event-row")).toHaveCount(1);
});

test("screenshots of /events at 1280 and 390 px, with no sideways scrolling on a phone", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, "events screens"));
  const van = (await api.post("/trackables", { name: "Screenshot van with a rather long name", type: "vehicle" })).body;
  expect((await api.patch(`/trackables/${van.id}`, { motion: { minTripDistance: 100_000 } })).status).toBe(200);
  await createGeofenceViaApi(api, { name: "Screenshot depot", ...CENTRE, radius: 150 });
  expect((await api.post(`/trackables/${van.id}/locations`, { latitude: northOf(CENTRE.latitude, 600), longitude: CENTRE.longitude })).status).toBe(201);
  expect((await api.post(`/trackables/${van.id}/locations`, { ...CENTRE, battery: 8 })).status).toBe(201);
  await expect.poll(async () => (await api.get("/events")).body.data.length, { timeout: 15_000 }).toBe(3);

  await page.goto("/events");
  await expect(page.getByTestId("event-row")).toHaveCount(3);
  const filterToggle = page.getByRole("button", { name: /^Filters/ });
  await expect(page.getByLabel("Trackable")).toBeVisible();
  await expect(filterToggle).toBeHidden();
  await shot(page, "events-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("event-row")).toHaveCount(3);
  // On a phone the filters fold behind one button, so the first screen shows events; the button opens them.
  await expect(page.getByLabel("Trackable")).toBeHidden();
  await expect(filterToggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByTestId("event-row").first()).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "events-390");
  await filterToggle.click();
  await expect(filterToggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByLabel("Trackable")).toBeVisible();
});
