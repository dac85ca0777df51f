import { expect, test } from "@playwright/test";
import { watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { liveSettled } from "./support/live";

// Times are shown in the viewer's zone (the browser's), with the UTC instant in the title; the track's custom range is
// typed in that zone. Each zone runs in a browser context of its own (timezoneId), signed in as the setup's user.

const INSTANT = "2026-01-15T12:00:00.000Z";

const ZONES = [
  { timezoneId: "America/New_York", recorded: /Jan 15, 2026, 7:00:00\sAM EST/, from: "2026-01-15T06:30", to: "2026-01-15T07:30" },
  { timezoneId: "Asia/Kolkata", recorded: /Jan 15, 2026, 5:30:00\sPM GMT\+5:30/, from: "2026-01-15T17:00", to: "2026-01-15T18:00" },
] as const;

for (const zone of ZONES) {
  test.describe(zone.timezoneId, () => {
    test.use({ timezoneId: zone.timezoneId, locale: "en-US" });

    test(`a known instant renders in ${zone.timezoneId}, the UTC instant on hover, and the custom range is local`, async ({ page, request }) => {
      const errors = watchConsole(page); // a hydration mismatch would be a console error
      const api = apiClient(request, await createApiKey(page, `time ${zone.timezoneId}`));
      const van = (await api.post("/trackables", { name: `Clock van ${zone.timezoneId}`, type: "vehicle" })).body;
      expect((await api.post(`/trackables/${van.id}/locations`, { latitude: 40.7128, longitude: -74.006, timestamp: INSTANT })).status).toBe(201);

      await page.goto(`/trackables/${van.id}?range=7d`);
      const recorded = page.getByTestId("latest-details").locator(`time[datetime="${INSTANT}"]`).first();
      await expect(recorded).toHaveText(zone.recorded);
      await expect(recorded).toHaveAttribute("title", INSTANT);

      // The custom range, typed in local time around the point, is sent as UTC instants and finds it.
      await liveSettled(page);
      await page.getByText("Custom range").click();
      await page.getByLabel("From", { exact: true }).fill(zone.from);
      await page.getByLabel("To (empty for now)").fill(zone.to);
      await page.getByRole("button", { name: "Show range" }).click();
      await expect(page).toHaveURL(/range=custom/);
      const url = new URL(page.url());
      expect(new Date(url.searchParams.get("from")!).getTime()).toBe(new Date(INSTANT).getTime() - 30 * 60_000);
      expect(new Date(url.searchParams.get("to")!).getTime()).toBe(new Date(INSTANT).getTime() + 30 * 60_000);
      await expect(page.getByTestId("track-map")).toHaveAttribute("data-point-count", "1");
      // The form shows the range back in local time.
      await expect(page.getByLabel("From", { exact: true })).toHaveValue(zone.from);
      errors.expectNone();
    });
  });
}

test("relative times tick without a reload", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, "time relative"));
  const van = (await api.post("/trackables", { name: "Relative van", type: "vehicle" })).body;
  await page.clock.install();
  expect((await api.post(`/trackables/${van.id}/locations`, { latitude: 1, longitude: 1 })).status).toBe(201);
  await page.goto(`/trackables/${van.id}`);
  const lastSeen = page.getByText(/^Last seen/);
  await expect(lastSeen).toContainText("just now");
  await page.clock.runFor(3 * 60_000);
  await expect(lastSeen).toContainText("3 minutes ago");
});
