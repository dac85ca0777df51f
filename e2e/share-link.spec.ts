import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiClient, createApiKey } from "./support/api";
import { shot } from "./support/screens";

// The public share page, seen by a visitor with no session: the live marker follows new locations without a reload,
// and the page says so when the link stops being valid.

const START = { latitude: 52.52, longitude: 13.405 };
const MOVED = { latitude: 52.5215, longitude: 13.4072 };

/** A fresh browser context without the dashboard session, as the person the link was sent to. */
async function visitor(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport });
  return context.newPage();
}

test("a visitor follows a shared trackable live, then sees the link revoked", async ({ page, request, browser }) => {
  const api = apiClient(request, await createApiKey(page, "e2e share links"));
  const trackable = (await api.post("/trackables", { name: "Van 12", type: "vehicle" })).body;
  expect((await api.post(`/trackables/${trackable.id}/locations`, { ...START, accuracy: 60, battery: 76 })).status).toBe(201);
  const link = await api.post("/share-links", { trackableId: trackable.id, name: "e2e", expiresIn: 3600 });
  expect(link.status).toBe(201);

  const guest = await visitor(browser);
  const first = await guest.goto(link.body.url);
  expect(first?.status()).toBe(200);
  await expect(guest.getByRole("heading", { name: "Van 12" })).toBeVisible();
  const marker = guest.getByTestId("share-marker");
  await expect(marker).toHaveAttribute("data-lat", String(START.latitude));
  await expect(marker).toHaveAttribute("data-lon", String(START.longitude));
  await expect(guest.getByTestId("last-updated")).toHaveText(/ago|just now/);
  await expect(guest.getByText("± 60 m")).toBeVisible();
  await expect(guest.getByTestId("expires")).toHaveText(/Link expires in (59 minutes|1 hour)/);
  await expect(guest.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await shot(guest, "share-valid");
  const before = await marker.boundingBox();

  // A new location arrives: the marker moves on the next poll, in the same document (no navigation, no reload).
  await guest.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  expect((await api.post(`/trackables/${trackable.id}/locations`, { ...MOVED, accuracy: 15 })).status).toBe(201);
  await expect(marker).toHaveAttribute("data-lat", String(MOVED.latitude), { timeout: 15_000 });
  await expect(marker).toHaveAttribute("data-lon", String(MOVED.longitude));
  await expect(guest.getByTestId("coordinates")).toHaveText("52.52150° N, 13.40720° E");
  await expect(guest.getByText("± 15 m")).toBeVisible();
  const after = await marker.boundingBox();
  expect(before && after).toBeTruthy();
  expect(Math.hypot(after!.x - before!.x, after!.y - before!.y)).toBeGreaterThan(20);
  expect(await guest.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await shot(guest, "share-moved");

  // Revoked while open: the next poll gets 404 and the page switches to "no longer valid", still without a reload.
  expect((await api.delete(`/share-links/${link.body.id}`)).status).toBe(204);
  await expect(guest.getByRole("heading", { name: "This link is no longer valid" })).toBeVisible({ timeout: 15_000 });
  await expect(guest.getByTestId("share-marker")).toHaveCount(0);
  expect(await guest.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // Opened afresh: HTTP 404, the same message, and nothing of the trackable.
  const reopened = await guest.goto(link.body.url);
  expect(reopened?.status()).toBe(404);
  await expect(guest.getByRole("heading", { name: "This link is no longer valid" })).toBeVisible();
  await expect(guest.getByText("Van 12")).toHaveCount(0);
  await shot(guest, "share-invalid");
  await guest.context().close();
});

test("a trackable without a location yet shows an empty state, then its first position", async ({ page, request, browser }) => {
  const api = apiClient(request, await createApiKey(page, "e2e share empty"));
  const trackable = (await api.post("/trackables", { name: "Courier bike", type: "bicycle" })).body;
  const link = (await api.post("/share-links", { trackableId: trackable.id, expiresIn: 600 })).body;

  const guest = await visitor(browser, { width: 390, height: 844 });
  await guest.goto(link.url);
  await expect(guest.getByRole("heading", { name: "Courier bike" })).toBeVisible();
  await expect(guest.getByTestId("no-location")).toContainText("No location yet");
  await expect(guest.getByTestId("share-marker")).toHaveCount(0);
  await shot(guest, "share-empty-mobile");

  expect((await api.post(`/trackables/${trackable.id}/locations`, START)).status).toBe(201);
  await expect(guest.getByTestId("share-marker")).toHaveAttribute("data-lat", String(START.latitude), { timeout: 15_000 });
  await expect(guest.getByTestId("no-location")).toHaveCount(0);
  await expect(guest.getByTestId("last-updated")).toBeVisible();
  await shot(guest, "share-valid-mobile");
  await guest.context().close();
});

test("an unknown token is a 404 with the no-longer-valid page", async ({ browser }) => {
  const guest = await visitor(browser);
  const res = await guest.goto(`/share/${"A".repeat(43)}`);
  expect(res?.status()).toBe(404);
  expect(res?.headers()["x-robots-tag"]).toBe("noindex");
  await expect(guest.getByRole("heading", { name: "This link is no longer valid" })).toBeVisible();
  await guest.context().close();
});

test("the trackable page creates, lists and revokes share links", async ({ page, request, browser }) => {
  const api = apiClient(request, await createApiKey(page, "e2e share panel"));
  const trackable = (await api.post("/trackables", { name: "Courier 7", type: "person" })).body;
  expect((await api.post(`/trackables/${trackable.id}/locations`, START)).status).toBe(201);

  await page.goto(`/trackables/${trackable.id}`);
  await page.getByLabel("Name (optional)").fill("For the customer");
  await page.getByText("7 days", { exact: true }).click();
  await page.getByRole("button", { name: "Create link" }).click();
  const url = await page.getByTestId("new-share-link").inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
  const list = page.getByRole("list", { name: "Active share links" });
  const item = list.getByRole("listitem").filter({ hasText: "For the customer" });
  await expect(item).toContainText(url);
  await expect(item).toContainText(/Expires in (6|7) days/);
  await shot(page, "trackable-share-links");

  // The API sees the same link, with the chosen expiry.
  const listed = await api.get(`/share-links?trackableId=${trackable.id}`);
  expect(listed.body.data).toHaveLength(1);
  expect(listed.body.data[0].url).toBe(url);

  const guest = await visitor(browser);
  await guest.goto(url);
  await expect(guest.getByRole("heading", { name: "Courier 7" })).toBeVisible();

  await item.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke link" }).click();
  await expect(list).toHaveCount(0);
  await expect(guest.getByText("This link is no longer valid")).toBeVisible();
  expect((await guest.reload())?.status()).toBe(404);
  await guest.context().close();
});
