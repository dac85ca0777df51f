import { expect, test, type Page } from "@playwright/test";
import { apiClient, createApiKey } from "./support/api";
import { seriousViolations } from "./support/axe";
import { test as freshTest } from "./support/fresh-account";
import { shot } from "./support/screens";

// The privacy zones page: add a zone with the form, see it listed and drawn on the map in its own style, edit it,
// delete it; axe finds no serious violation and nothing scrolls sideways at a phone's 390 px.
const uniq = (base: string) => `${base} ${Date.now().toString(36).slice(-5)}`;

async function expectAccessible(page: Page, width: number) {
  const bad = await seriousViolations(page);
  expect(bad, bad.join("\n")).toEqual([]);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll).toBeLessThanOrEqual(width);
}

test("add, draw, edit and delete a privacy zone", async ({ page }) => {
  const name = uniq("Home");
  await page.goto("/privacy-zones");
  await expect(page.getByRole("heading", { name: "Privacy zones", exact: true })).toBeVisible();

  const form = page.getByRole("form", { name: "New privacy zone" });
  await form.getByLabel("Radius (m)").fill("20");
  await form.getByRole("button", { name: "Add zone" }).click();
  await expect(form.getByText(/Radius/).and(page.getByRole("alert")).first()).toBeVisible();

  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Latitude").fill("52.52");
  await form.getByLabel("Longitude").fill("13.405");
  await form.getByLabel("Radius (m)").fill("250");
  await form.getByLabel("Mode").selectOption("blur");
  await form.getByRole("button", { name: "Add zone" }).click();

  const row = page.getByTestId("privacy-zone").filter({ hasText: name });
  await expect(row).toContainText("250 m");
  await expect(row).toContainText("blur");
  await expect(page.locator("path.fl-privacy-zone").first()).toBeVisible();
  await expectAccessible(page, 1280);
  await shot(page, "privacy-zones-1280");

  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("form", { name: `Edit ${name}` });
  await edit.getByLabel("Radius (m)").fill("400");
  await edit.getByRole("button", { name: "Save zone" }).click();
  await expect(row).toContainText("400 m");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(row).toBeVisible();
  await expectAccessible(page, 390);
  await shot(page, "privacy-zones-390");

  await row.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(row).toHaveCount(0);
});

test("pause and resume a trackable's tracking from its page; posts while paused are not stored", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, uniq("tracking toggle")));
  const trackable = (await api.post("/trackables", { name: uniq("Bike") })).body as { id: string };
  await page.goto(`/trackables/${trackable.id}`);
  await page.getByRole("button", { name: "Pause tracking" }).click();
  await expect(page.getByTestId("tracking-paused")).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume tracking" })).toHaveAttribute("aria-pressed", "true");
  expect((await api.post(`/trackables/${trackable.id}/locations`, { latitude: 1, longitude: 1 })).body).toEqual({ data: [] });
  await page.getByRole("button", { name: "Resume tracking" }).click();
  await expect(page.getByTestId("tracking-paused")).toHaveCount(0);
  expect((await api.get(`/trackables/${trackable.id}`)).body.tracking).toBe("active");
});

// A new, empty account: the maps are counted, so no other spec's zone may be drawn on them.
freshTest("the fleet map shows the account's privacy zones, a trackable's map those that apply to it", async ({ page, request }) => {
  const api = apiClient(request, await createApiKey(page, "zones on maps"));
  const van = (await api.post("/trackables", { name: "Van" })).body as { id: string };
  const bike = (await api.post("/trackables", { name: "Bike" })).body as { id: string };
  const at = new Date(Date.now() - 60_000).toISOString();
  // Both trackables between the two zones (about 360 m from Home's centre, 330 m from the yard's), outside them.
  for (const t of [van, bike]) expect((await api.post(`/trackables/${t.id}/locations`, { latitude: 52.5232, longitude: 13.405, timestamp: at })).status).toBe(201);
  expect((await api.post("/privacy-zones", { name: "Home", latitude: 52.52, longitude: 13.405, radius: 300 })).status).toBe(201);
  expect((await api.post("/privacy-zones", { name: "Vans' yard", latitude: 52.5262, longitude: 13.405, radius: 200, mode: "blur", trackableIds: [van.id] })).status).toBe(201);

  await page.goto("/trackables");
  await expect(page.locator(".leaflet-container path.fl-privacy-zone")).toHaveCount(2);
  await page.goto(`/trackables/${van.id}`);
  await expect(page.getByTestId("track-map").locator("path.fl-privacy-zone")).toHaveCount(2);
  await shot(page, "trackable-privacy-zones-1280");
  await page.goto(`/trackables/${bike.id}`);
  await expect(page.getByTestId("track-map").locator("path.fl-privacy-zone")).toHaveCount(1);
});
