import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
// A new, empty account: the fleet list and the trips panel count what this test posted, nothing else.
import { expect, test } from "./support/fresh-account";
import { expectAccessibleAtBothWidths } from "./support/screens";
import { liveSettled } from "./support/live";

// A drive posted through the API becomes a trip on the trackable's page (times in the viewer's zone, distance, speeds);
// opening it draws its path and its speed; a trip still under way is marked ongoing; the fleet list says which
// trackable is stopped and which is moving, since when.

// Kolkata is UTC+5:30 all year: the expected local times are the UTC ones shifted by hand, not by the code under test.
test.use({ timezoneId: "Asia/Kolkata", locale: "en-US" });
const KOLKATA_MS = (5 * 60 + 30) * 60_000;
/** A pattern for "7:05 AM", an instant's time of day in Kolkata (Intl puts a narrow no-break space before AM/PM). */
function clockRe(iso: string): RegExp {
  const d = new Date(Date.parse(iso) + KOLKATA_MS);
  const h = d.getUTCHours();
  return new RegExp(`${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, "0")}[\\s\u202f]${h < 12 ? "AM" : "PM"}`);
}

const M_PER_DEG = 111_195;
/** Two hours ago on a whole minute: inside the page's default range (the last 24 hours). */
const T0 = Math.floor((Date.now() - 2 * 3600_000) / 60_000) * 60_000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const north = (m: number) => 52.5 + m / M_PER_DEG;

/** Parked 6 minutes, 6 minutes north at 15 m/s (a fix every 20 s: 5.4 km), parked 6 minutes. */
function drive() {
  const fixes: { latitude: number; longitude: number; accuracy: number; timestamp: string }[] = [];
  const fix = (s: number, m: number) => fixes.push({ latitude: north(m), longitude: 13.4, accuracy: 8, timestamp: at(s) });
  for (let s = 0; s <= 360; s += 60) fix(s, 0);
  for (let s = 380; s <= 720; s += 20) fix(s, (s - 360) * 15);
  for (let s = 780; s <= 1140; s += 60) fix(s, 360 * 15);
  return fixes;
}

test("a posted drive shows as a trip with local times and distance, opens with its path and speed, and the fleet says stopped or moving since", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e trips"));
  const van = (await api.post("/trackables", { name: "Delivery van 3", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${van.id}/locations`, { locations: drive() })).status).toBe(201);
  // Motion is computed after the post returns: wait for the completed trip.
  await expect.poll(async () => (await api.get(`/trips?trackableId=${van.id}`)).body.data.map((t: { status: string }) => t.status), { timeout: 30_000 }).toEqual(["completed"]);

  await page.goto(`/trackables/${van.id}`);
  const panel = page.getByTestId("trips-panel");
  await expect(panel.getByRole("heading", { name: "Trips" })).toBeVisible();
  await expect(panel).toContainText("1 trip, 2 stops in this range");
  const row = panel.getByTestId("trip-row");
  await expect(row).toHaveCount(1);
  // Starts at the last parked fix (360 s), ends at the first fix of the stop (720 s), in Kolkata time.
  await expect(row.getByTestId("trip-start")).toHaveText(new RegExp(`${clockRe(at(360)).source}\\sGMT\\+5:30`));
  await expect(row.getByTestId("trip-start")).toHaveAttribute("datetime", at(360));
  await expect(row.getByTestId("trip-end")).toHaveText(clockRe(at(720)));
  await expect(row.getByTestId("trip-distance")).toHaveText("5.4 km");
  await expect(row).toContainText("6 min");
  await expect(row).toContainText("avg 54 km/h");
  await expect(row).toContainText("max 54 km/h");
  await expect(row.getByTestId("trip-ongoing")).toHaveCount(0);
  const stopsList = panel.getByRole("list", { name: "Stops in this range" });
  await expect(stopsList.getByTestId("stop-row")).toHaveCount(2);
  await expect(stopsList.getByTestId("stop-row").first()).toContainText("now");
  await expect(stopsList.getByTestId("stop-row").nth(1)).toContainText("6 min");

  // Open the trip: its 19 fixes on a map of its own, and the speed chart.
  await row.getByRole("link").click();
  await expect(page).toHaveURL(/trip=/);
  const detail = page.getByTestId("trip-detail");
  await expect(detail).toBeVisible();
  await expect(row.getByRole("link")).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("trip-map")).toHaveAttribute("data-point-count", "19");
  // The path is a line straight north (zero width, so not "visible" to Playwright): a drawn polyline with its legs.
  await expect(page.getByTestId("trip-map").locator('path.leaflet-interactive[stroke="#4f46e5"]').first()).toHaveAttribute("d", /^M[\d.]+ [\d.]+L/);
  const chart = page.getByTestId("speed-chart");
  await expect(chart).toHaveAttribute("data-samples", "19");
  await expect(chart.getByRole("img", { name: /Speed over time: 19 positions, up to 54 km\/h/ })).toBeVisible();
  await expectAccessibleAtBothWidths(page, "trip-opened");

  await detail.getByRole("link", { name: "Close trip" }).click();
  await expect(page.getByTestId("trip-detail")).toHaveCount(0);

  // A bike still on the road: its trip is ongoing (no stop after the drive).
  const bike = (await api.post("/trackables", { name: "Courier bike", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${bike.id}/locations`, { locations: drive().filter((f) => f.timestamp <= at(720)) })).status).toBe(201);
  await expect.poll(async () => (await api.get(`/trips?trackableId=${bike.id}`)).body.data.map((t: { status: string }) => t.status), { timeout: 30_000 }).toEqual(["ongoing"]);
  await page.goto(`/trackables/${bike.id}`);
  const ongoing = page.getByTestId("trips-panel").getByTestId("trip-row");
  await expect(ongoing.getByTestId("trip-ongoing")).toHaveText("Ongoing");
  await expect(ongoing).toContainText("now");

  await page.goto("/trackables");
  const since = page.getByTestId("trackable-row").filter({ hasText: "Delivery van 3" }).getByTestId("motion-since");
  await expect(since).toHaveAttribute("data-state", "stopped");
  await expect(since).toHaveText(new RegExp(`^Stopped since (\\w+ \\d+, )?${clockRe(at(720)).source}$`));
  const moving = page.getByTestId("trackable-row").filter({ hasText: "Courier bike" }).getByTestId("motion-since");
  await expect(moving).toHaveText(new RegExp(`^Moving since (\\w+ \\d+, )?${clockRe(at(360)).source}$`));
  await expectAccessibleAtBothWidths(page, "fleet-motion");
  errors.expectNone();
});

/**
 * 103 parked spells 1 km apart with a short drive between each and the next: 102 trips and 103 stops, ten to two hours
 * ago. Each spell is 200 s of fixes (a stop), the drive two fixes 350 m apart.
 */
function commute() {
  const start = Math.floor((Date.now() - 10 * 3600_000) / 60_000) * 60_000;
  const fixes: { latitude: number; longitude: number; accuracy: number; timestamp: string }[] = [];
  const fix = (s: number, m: number) => fixes.push({ latitude: north(m), longitude: 13.4, accuracy: 8, timestamp: new Date(start + s * 1000).toISOString() });
  for (let k = 0; k < 103; k++) {
    const c = k * 300;
    for (const s of [0, 60, 120, 200]) fix(c + s, k * 1000);
    if (k < 102) {
      fix(c + 230, k * 1000 + 350);
      fix(c + 260, k * 1000 + 700);
    }
  }
  return fixes;
}

test("past 100 trips or stops the card pages: older and newest pages of each, kept while a trip is opened", async ({ page, request }) => {
  // Six hundred fixes to evaluate, and pages of 200 rows checked by axe at two widths.
  test.slow();
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e trip pages"));
  const truck = (await api.post("/trackables", { name: "Shuttle 9", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${truck.id}/locations`, { locations: commute() })).status).toBe(201);
  // Motion is computed after the post returns: wait for the 102nd trip (the second page of the API's).
  await expect
    .poll(
      async () => {
        const first = (await api.get(`/trips?trackableId=${truck.id}&limit=100`)).body;
        if (!first.nextCursor) return first.data.length;
        return first.data.length + (await api.get(`/trips?trackableId=${truck.id}&limit=100&cursor=${first.nextCursor}`)).body.data.length;
      },
      { timeout: 30_000 },
    )
    .toBe(102);

  await page.goto(`/trackables/${truck.id}`);
  const panel = page.getByTestId("trips-panel");
  const trips = panel.getByRole("list", { name: "Trips in this range" }).getByTestId("trip-row");
  const stops = panel.getByRole("list", { name: "Stops in this range" }).getByTestId("stop-row");
  await expect(trips).toHaveCount(100);
  await expect(stops).toHaveCount(100);
  await expect(panel.getByTestId("trips-count")).toHaveText("100 trips, 100 stops on these pages, newest first");
  const tripPages = panel.getByRole("navigation", { name: "Pages of trips" });
  const stopPages = panel.getByRole("navigation", { name: "Pages of stops" });
  await expect(tripPages.getByRole("link", { name: "Newest trips" })).toHaveCount(0);
  const newestFirst = await trips.first().getAttribute("data-trip-id");

  // The older trips: the two oldest; the stops stay on their first page.
  await liveSettled(page);
  await tripPages.getByRole("link", { name: "Older trips →" }).click();
  await expect(page).toHaveURL(/tripsAfter=/);
  await expect(trips).toHaveCount(2);
  await expect(stops).toHaveCount(100);
  await expect(tripPages.getByRole("link", { name: "Older trips →" })).toHaveCount(0);

  // Then the older stops too: both lists on their second page.
  await stopPages.getByRole("link", { name: "Older stops →" }).click();
  await expect(page).toHaveURL(/stopsAfter=.*tripsAfter=|tripsAfter=.*stopsAfter=/);
  await expect(stops).toHaveCount(3);
  await expect(trips).toHaveCount(2);
  await expect(panel.getByTestId("trips-count")).toHaveText("2 trips, 3 stops on these pages, newest first");

  // Opening a trip of the second page keeps both pages; closing it too.
  await trips.last().getByRole("link").click();
  await expect(page.getByTestId("trip-detail")).toBeVisible();
  await expect(trips).toHaveCount(2);
  await expect(stops).toHaveCount(3);
  await expectAccessibleAtBothWidths(page, "trips-paged");
  await page.getByTestId("trip-detail").getByRole("link", { name: "Close trip" }).click();
  await expect(page.getByTestId("trip-detail")).toHaveCount(0);
  await expect(trips).toHaveCount(2);
  await expect(page).not.toHaveURL(/[?&]trip=/);

  // Back to the newest trips: the same first page as before.
  await liveSettled(page);
  await tripPages.getByRole("link", { name: "Newest trips" }).click();
  await expect(trips).toHaveCount(100);
  await expect(trips.first()).toHaveAttribute("data-trip-id", newestFirst!);
  await expect(stops).toHaveCount(3);
  errors.expectNone();
});
