import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
import { expect, test } from "./support/fresh-account";
import { holdNextRefresh, liveSettled } from "./support/live";

// A live page re-renders from the server when something it shows changes; on a slow server that takes seconds. What
// the viewer does meanwhile stands: a playback started, a custom range typed, a link followed. Each test holds one
// refresh at the network until the viewer has acted, then lets it land.

test.use({ timezoneId: "UTC", locale: "en-US" });

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
/** A 20-minute drive east in 41 points, up to now. */
const drive = () => Array.from({ length: 41 }, (_, i) => ({ latitude: 52.52 + i * 0.0004, longitude: 13.405 + i * 0.0011, timestamp: minutesAgo(20 - i / 2) }));

async function trackableWithDrive(page: import("@playwright/test").Page, request: import("@playwright/test").APIRequestContext, name: string) {
  const api = apiClient(request, await createApiKey(page, name));
  const van = (await api.post("/trackables", { name, type: "vehicle" })).body;
  expect((await api.post(`/trackables/${van.id}/locations`, { locations: drive() })).status).toBe(201);
  /** A new position: the page's stream says so and the page refreshes. */
  const move = async () => expect((await api.post(`/trackables/${van.id}/locations`, { latitude: 52.54, longitude: 13.46, timestamp: minutesAgo(0) })).status).toBe(201);
  return { id: van.id as string, move };
}

test("a playback started and a custom range typed while a refresh is under way are kept when it lands", async ({ page, request }) => {
  const errors = watchConsole(page);
  const { id, move } = await trackableWithDrive(page, request, "Steady van");
  await page.goto(`/trackables/${id}`);
  const controls = page.getByRole("group", { name: "Playback" });
  await expect(controls.getByRole("button", { name: "Play" })).toBeVisible();
  await liveSettled(page);

  const refresh = await holdNextRefresh(page);
  await move();
  await refresh.held;

  // Meanwhile: a slow playback started, a custom start typed.
  await controls.getByLabel("Speed").selectOption("1");
  await controls.getByRole("button", { name: "Play" }).click();
  await expect(controls.getByRole("button", { name: "Pause" })).toBeVisible();
  await page.getByText("Custom range").click();
  const from = page.getByLabel("From", { exact: true });
  await from.fill("2026-01-15T06:30");

  // The refresh lands: the new position is on the page, and nothing the viewer did was undone.
  refresh.release();
  await expect(page.getByTestId("track-map")).toHaveAttribute("data-point-count", "42");
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-refreshing", "false");
  await expect(controls.getByRole("button", { name: "Pause" })).toBeVisible();
  await expect(page.getByTestId("playback")).not.toHaveAttribute("data-playback-time", "");
  await expect(from).toHaveValue("2026-01-15T06:30");

  // And the typed start is what the form sends.
  await page.getByRole("button", { name: "Show range" }).click();
  await expect(page).toHaveURL(/range=custom/);
  expect(new URL(page.url()).searchParams.get("from")).toBe("2026-01-15T06:30:00.000Z");
  errors.expectNone();
});

test("a link followed while a refresh is under way ends on the page it asked for", async ({ page, request }) => {
  const errors = watchConsole(page);
  const { id, move } = await trackableWithDrive(page, request, "Roaming van");
  await page.goto(`/trackables/${id}`);
  await liveSettled(page);

  const refresh = await holdNextRefresh(page);
  await move();
  await refresh.held;
  await page.getByRole("link", { name: "Last 7 days" }).click();
  refresh.release();

  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("track-map")).toHaveAttribute("data-point-count", "42");
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-refreshing", "false");
  await expect(page).toHaveURL(/range=7d/);
  errors.expectNone();
});
