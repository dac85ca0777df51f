import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
import { shot } from "./support/screens";
import { expect, test } from "./support/fresh-account";

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
// <input type="datetime-local"> is in the browser's zone: the test runner and the browser share the machine's.
const localInput = (iso: string) => {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

test("trackables: create, first position on the map, track and time ranges, rename, delete", async ({ page, request, baseURL }) => {
  const errors = watchConsole(page);
  test.setTimeout(120_000); // some thirty page loads: on a 2-core machine under a load of 20 it passes 60 s near its end
  const key = await createApiKey(page, "e2e trackables");
  const api = apiClient(request, key);

  await page.goto("/trackables");
  await expect(page.getByRole("heading", { name: "No trackables yet" })).toBeVisible();
  await expect(page.getByLabel("curl command to create a trackable")).toContainText(`${baseURL}/api/v1/trackables`);
  await shot(page, "trackables-empty-1280");

  // Create in the dashboard: a validation error appears next to the field, then the trackable's page opens.
  await page.getByRole("button", { name: "New trackable" }).click();
  const dialog = page.getByRole("dialog", { name: "New trackable" });
  await dialog.getByLabel("Name").fill("   ");
  await dialog.getByRole("button", { name: "Create trackable" }).click();
  await expect(dialog.getByText("must be 1–100 characters")).toBeVisible();
  await dialog.getByLabel("Name").fill("Van 12");
  await dialog.getByLabel("Type").fill("vehicle");
  await dialog.getByRole("button", { name: "Create trackable" }).click();
  await page.waitForURL(/\/trackables\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1, name: "Van 12" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No positions yet" })).toBeVisible();
  const curl = page.getByLabel("curl command");
  await expect(curl).toContainText(`${baseURL}/api/v1/trackables/${id}/locations`);
  await expect(page.getByRole("link", { name: "API keys" }).last()).toHaveAttribute("href", "/api-keys");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  await shot(page, "trackable-detail-empty-1280");

  // A first position through the API, with a low battery.
  const first = await api.post(`/trackables/${id}/locations`, { latitude: 52.52, longitude: 13.405, accuracy: 40, speed: 3.5, heading: 90, battery: 15 });
  expect(first.status).toBe(201);

  await page.goto("/trackables");
  const map = page.getByRole("region", { name: "Map of trackables" });
  const marker = map.locator('.fl-marker[title="Van 12"]');
  await expect(marker).toBeVisible();
  await expect(marker).toContainText("Van 12");
  const row = page.getByTestId("trackable-row").filter({ hasText: "Van 12" });
  await expect(row).toContainText("vehicle");
  await expect(row).toContainText("Online");
  await expect(row.getByTestId("last-seen")).toHaveText("just now");
  // On hover: the exact time in the viewer's zone and the UTC instant.
  await expect(row.getByTestId("last-seen").locator("time")).toHaveAttribute("title", /\(\d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
  await expect(row.getByTestId("battery")).toContainText("15%");
  await expect(row.getByTestId("battery").locator("[data-battery-low]")).toHaveAttribute("data-battery-low", "true");
  await shot(page, "trackables-list-1280");

  // The marker opens the trackable's page.
  await marker.click();
  await page.waitForURL(`**/trackables/${id}`);

  // More points: 10 minutes, 3 hours and 2 days ago (the first one is "now").
  const more = await api.post(`/trackables/${id}/locations`, {
    locations: [
      { latitude: 52.515, longitude: 13.39, timestamp: minutesAgo(10), battery: 18 },
      { latitude: 52.505, longitude: 13.37, timestamp: minutesAgo(180), battery: 30 },
      { latitude: 52.49, longitude: 13.35, timestamp: minutesAgo(2 * 24 * 60), battery: 80 },
    ],
  });
  expect(more.status).toBe(201);
  await page.reload();
  const track = page.getByTestId("track-map");
  // Last 24 hours (the default): 3 points, drawn as a line, two small dots and the newest as the marker.
  await expect(track).toHaveAttribute("data-point-count", "3");
  await expect(track.locator("path.leaflet-interactive")).toHaveCount(3);
  await expect(track.locator(".fl-marker")).toBeVisible();
  await expect(page.getByTestId("track-point-count")).toContainText("3 points");
  await expect(page.getByTestId("recent-point")).toHaveCount(3);
  const latest = page.getByTestId("latest-details");
  await expect(latest).toContainText("52.520000");
  await expect(latest).toContainText("13.405000");
  await expect(latest).toContainText("±40 m");
  await expect(latest).toContainText("3.5 m/s");
  await expect(latest).toContainText("90° E");
  await expect(latest).toContainText("15%");
  await shot(page, "trackable-detail-1280");

  const ranges = page.getByRole("navigation", { name: "Time range" });
  await ranges.getByRole("link", { name: "Last hour" }).click();
  await expect(page).toHaveURL(/range=1h/);
  await expect(track).toHaveAttribute("data-point-count", "2");
  await expect(ranges.getByRole("link", { name: "Last hour" })).toHaveAttribute("aria-current", "page");
  await ranges.getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(track).toHaveAttribute("data-point-count", "4");
  await expect(track.locator("path.leaflet-interactive")).toHaveCount(4);

  // A custom range around the 2-day-old point only; the URL can be shared and renders the same.
  await page.getByText("Custom range").click();
  await page.getByLabel("From", { exact: true }).fill(localInput(minutesAgo(2 * 24 * 60 + 30)));
  await page.getByLabel("To (empty for now)").fill(localInput(minutesAgo(24 * 60)));
  await page.getByRole("button", { name: "Show range" }).click();
  await expect(page).toHaveURL(/range=custom&from=.+&to=.+/);
  await expect(track).toHaveAttribute("data-point-count", "1");
  await expect(page.getByTestId("track-point-count")).toContainText("1 point");
  const shared = page.url();
  await page.goto(shared);
  await expect(track).toHaveAttribute("data-point-count", "1");
  await shot(page, "trackable-detail-custom-range-1280");

  // An impossible custom range says why and falls back to the default.
  await page.goto(`/trackables/${id}?range=custom&from=2026-13-40T99:99`);
  await expect(page.getByText("Enter a valid start date and time.")).toBeVisible();
  await expect(track).toHaveAttribute("data-point-count", "3");

  // Rename and change the type.
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit “Van 12”" });
  await edit.getByLabel("Name").fill("Van 12 (north)");
  await edit.getByLabel("Type").fill("truck");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Van 12 (north)" })).toBeVisible();
  await expect(page.getByTestId("trackable-type")).toHaveText("truck");
  expect((await api.get(`/trackables/${id}`)).body).toMatchObject({ name: "Van 12 (north)", type: "truck" });

  // Delete: the confirmation says the history goes too.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete “Van 12 (north)”?" });
  await expect(confirm).toContainText("location history is deleted");
  await confirm.getByRole("button", { name: "Delete trackable" }).click();
  await page.waitForURL("**/trackables");
  await expect(page.getByRole("heading", { name: "No trackables yet" })).toBeVisible();
  expect((await api.get(`/trackables/${id}`)).status).toBe(404);
  expect((await api.get(`/trackables/${id}/locations`)).status).toBe(404);

  errors.expectNone();
});

test("unknown and malformed trackable ids show the not-found page", async ({ page }) => {
  for (const id of ["0193a4b2-0000-7000-8000-000000000000", "not-a-uuid"]) {
    const res = await page.goto(`/trackables/${id}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found in this workspace" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  }
});

test("account: plan, members, workspace name", async ({ page, freshAccount }) => {
  const errors = watchConsole(page);
  await page.goto("/account");
  await expect(page.getByTestId("account-plan")).toHaveText("Enterprise");
  await expect(page.getByRole("list", { name: "What the plan includes" })).toContainText("Account webhooks");
  // The signed-in user is the one member of the new account, marked as "You".
  const { user } = freshAccount;
  await expect(page.getByTestId("signed-in-email")).toHaveText(user.email);
  const me = page.getByTestId("member-row").filter({ hasText: user.email });
  await expect(me).toContainText(user.name);
  await expect(me).toContainText("You");
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Signed in" }).getByRole("button", { name: "Sign out" })).toBeVisible();

  const name = page.getByLabel("Workspace name");
  await name.fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Workspace name must be 1–100 characters.")).toBeVisible();
  await name.fill("Fleet Ops");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  // The sidebar shows the new name.
  await expect(page.getByRole("complementary").getByText("Fleet Ops", { exact: true })).toBeVisible();
  await shot(page, "account-1280");
  errors.expectNone();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("list, detail and account fit a 390 px screen", async ({ page, request }) => {
    const errors = watchConsole(page);
    const key = await createApiKey(page, "e2e phone");
    const api = apiClient(request, key);
    const created = await api.post("/trackables", { name: "Courier Maya", type: "person" });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await api.post("/trackables", { name: "Pallet 7", type: "asset" });
    await api.post(`/trackables/${id}/locations`, {
      locations: [
        { latitude: 48.857, longitude: 2.352, timestamp: minutesAgo(30), battery: 64 },
        { latitude: 48.86, longitude: 2.34, timestamp: minutesAgo(5), accuracy: 12, battery: 61 },
      ],
    });

    const noOverflow = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.goto("/trackables");
    await expect(page.getByRole("region", { name: "Map of trackables" }).locator('.fl-marker[title="Courier Maya"]')).toBeVisible();
    await expect(page.getByTestId("trackable-row")).toHaveCount(2);
    await noOverflow();
    await shot(page, "trackables-list-390");

    await page.getByRole("link", { name: "Courier Maya" }).click();
    await page.waitForURL(`**/trackables/${id}`);
    await expect(page.getByTestId("track-map")).toHaveAttribute("data-point-count", "2");
    await expect(page.getByTestId("track-map").locator(".fl-marker")).toBeVisible();
    await noOverflow();
    await shot(page, "trackable-detail-390");

    await page.goto("/account");
    await expect(page.getByTestId("account-plan")).toBeVisible();
    await expect(page.getByTestId("member-row")).toHaveCount(1);
    await noOverflow();
    await shot(page, "account-390");
    errors.expectNone();
  });
});

test("the list pages with a cursor past 25 trackables", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e paging"));
  await page.goto("/trackables");
  const before = await page.getByTestId("trackable-row").count();
  // Fill the first page exactly, plus one more (oldest first, so the first one created ends up on page 2).
  const extra = 26 - before;
  for (let i = 0; i < extra; i++) expect((await api.post("/trackables", { name: `Tag ${String(i).padStart(2, "0")}`, type: "asset" })).status).toBe(201);
  await page.reload();
  await expect(page.getByTestId("trackable-row")).toHaveCount(25);
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next page →" }).click();
  await expect(page).toHaveURL(/\?cursor=/);
  await expect(page.getByTestId("trackable-row")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Next page →" })).toHaveCount(0);
  await page.getByRole("link", { name: "← First page" }).click();
  await expect(page.getByTestId("trackable-row")).toHaveCount(25);
  // A mangled cursor shows the first page with a note instead of an error.
  await page.goto("/trackables?cursor=not-a-cursor");
  await expect(page.getByText("That page link has expired")).toBeVisible();
  await expect(page.getByTestId("trackable-row")).toHaveCount(25);
  errors.expectNone();
});

test("an unknown address outside the dashboard gets the branded 404 page", async ({ page }) => {
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
});

test("the trackable's timeline shows an entry and the geofence it is inside, at 390 px too", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e timeline"));
  const trackable = (await api.post("/trackables", { name: "Timeline van" })).body;
  const yard = { type: "Polygon", coordinates: [[[13.40, 52.51], [13.41, 52.51], [13.41, 52.53], [13.40, 52.53], [13.40, 52.51]]] };
  const fence = await api.post("/geofences", { name: "Timeline yard", shape: "polygon", geometry: yard });
  expect(fence.status).toBe(201);
  const posted = await api.post(`/trackables/${trackable.id}/locations`, {
    locations: [
      { latitude: 52.5, longitude: 13.405, timestamp: minutesAgo(3) },
      { latitude: 52.52, longitude: 13.405, accuracy: 5, timestamp: minutesAgo(2) },
    ],
  });
  expect(posted.status).toBe(201);

  const timeline = page.getByRole("list", { name: "Event timeline" });
  // Evaluation runs after the post returns: reload until the entry is there.
  await expect(async () => {
    await page.goto(`/trackables/${trackable.id}`);
    await expect(timeline.getByTestId("timeline-event").filter({ hasText: "Entered" })).toContainText("Timeline yard", { timeout: 1000 });
  }).toPass();
  await expect(page.getByTestId("inside-list")).toContainText("Timeline yard");
  // The entry is marked on the track too (the map loads after the page).
  const marker = page.locator('.fl-transition-entry[title="Entered Timeline yard"]');
  await expect(marker).toBeVisible();
  await shot(page, "trackable-timeline-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(timeline.getByTestId("timeline-event").filter({ hasText: "Entered" })).toBeVisible();
  await expect(marker).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "trackable-timeline-390");
  errors.expectNone();
});
