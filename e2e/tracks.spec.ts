import fs from "node:fs";
import type { Page } from "@playwright/test";
import { parseCsv, parseGeoJson, parseGpx, pointOf, type ExportedPoint } from "../tests/support/track-export";
import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
import { shot } from "./support/screens";
import { expect, test } from "./support/fresh-account";
import { liveSettled } from "./support/live";

type Api = ReturnType<typeof apiClient>;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const LAT = 52.52;
const LON = 13.405;

async function newTrackable(api: Api, name: string): Promise<string> {
  const res = await api.post("/trackables", { name, type: "vehicle" });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A 20-minute drive east in 41 points, every optional field sometimes reported. */
const drive = () =>
  Array.from({ length: 41 }, (_, i) => ({
    latitude: LAT + i * 0.0004,
    longitude: LON + i * 0.0011,
    timestamp: minutesAgo(20 - i / 2),
    ...(i % 2 === 0 ? { accuracy: 5 + (i % 3) } : {}),
    ...(i % 3 === 0 ? { altitude: 34.5 + i } : {}),
    ...(i % 4 === 0 ? { speed: 9.5, heading: 72 } : {}),
    ...(i % 5 === 0 ? { battery: 90 - i } : {}),
  }));

async function historyOf(api: Api, id: string): Promise<(ExportedPoint & { id: string })[]> {
  const res = await api.get(`/trackables/${id}/locations?order=asc&limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

test("download the track as GPX, GeoJSON and CSV from the trackable page: each holds the API's history", async ({ page, request, baseURL }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e tracks export"));
  const id = await newTrackable(api, `Van "7" <east> & co`);
  expect((await api.post(`/trackables/${id}/locations`, { locations: drive() })).status).toBe(201);
  const history = await historyOf(api, id);
  expect(history).toHaveLength(41);

  await page.goto(`/trackables/${id}`);
  const form = page.getByRole("form", { name: "Download this range" });
  for (const format of ["gpx", "geojson", "csv"] as const) {
    await form.getByLabel("Format").selectOption(format);
    const [download] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^van-7-east-co_\\d{4}-\\d{2}-\\d{2}T\\d{4}Z_now\\.${format}$`));
    const text = fs.readFileSync((await download.path())!, "utf8");
    if (format === "gpx") {
      const gpx = parseGpx(text);
      expect(gpx.name).toBe(`Van "7" <east> & co`);
      expect(gpx.points).toEqual(history.map(pointOf));
    } else if (format === "geojson") {
      const geo = parseGeoJson(text);
      expect(geo.ids).toEqual(history.map((l) => l.id));
      expect(geo.points).toEqual(history.map(pointOf));
    } else {
      const csv = parseCsv(text);
      expect(csv.ids).toEqual(history.map((l) => l.id));
      expect(csv.points).toEqual(history.map(pointOf));
    }
  }
  // The page stayed where it was.
  await expect(page).toHaveURL(new RegExp(`/trackables/${id}$`));

  // Signed out, the dashboard's export route is a 401 in the API's envelope.
  const anonymous = await fetch(`${baseURL}/api/internal/trackables/${id}/locations/export?format=csv`);
  expect(anonymous.status).toBe(401);
  expect((await anonymous.json()).error.code).toBe("unauthorized");
  errors.expectNone();
});

test("playback moves a marker along the track: play/pause, speed and the time slider, by keyboard", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e tracks playback"));
  const id = await newTrackable(api, "Playback van");
  expect((await api.post(`/trackables/${id}/locations`, { locations: drive() })).status).toBe(201);

  await page.goto(`/trackables/${id}`);
  const map = page.getByRole("region", { name: "Track map" });
  const controls = page.getByRole("group", { name: "Playback" });
  const marker = map.locator(".fl-playback");
  await expect(marker).toHaveCount(0);
  await liveSettled(page);

  // Keyboard only: tab to Play and press Space; the marker appears and moves.
  await controls.getByLabel("Speed").selectOption("60");
  await controls.getByRole("button", { name: "Play" }).focus();
  await page.keyboard.press("Space");
  await expect(controls.getByRole("button", { name: "Pause" })).toBeVisible();
  await expect(marker).toBeVisible();
  const first = await marker.evaluate((el) => (el as HTMLElement).style.transform);
  await expect.poll(() => marker.evaluate((el) => (el as HTMLElement).style.transform)).not.toBe(first);
  await page.keyboard.press("Space");
  await expect(controls.getByRole("button", { name: "Play" })).toBeVisible();

  // The slider: End puts the marker on the last point, Home on the first.
  const slider = controls.getByRole("slider", { name: "Playback time" });
  await slider.focus();
  await page.keyboard.press("End");
  await expect(page.getByTestId("playback")).not.toHaveAttribute("data-playback-time", "");
  const atEnd = await marker.boundingBox();
  await page.keyboard.press("Home");
  const atStart = await marker.boundingBox();
  expect(atStart!.x).toBeLessThan(atEnd!.x - 50); // the drive goes east

  // At 390 px the controls fit and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(controls.getByRole("button", { name: "Play" })).toBeInViewport();
  await expect(slider).toBeInViewport();
  await noSidewaysScroll(page);
  errors.expectNone();
});

test("entry and exit points are marked on the track after crossing a fence; fences are drawn on the track map", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e tracks transitions"));
  const id = await newTrackable(api, "Crossing van");
  const fence = await api.post("/geofences", { name: "Depot", latitude: LAT, longitude: LON, radius: 200 });
  expect(fence.status).toBe(201);
  const polygon = await api.post("/geofences", {
    name: "Yard",
    shape: "polygon",
    geometry: { type: "Polygon", coordinates: [[[13.41, 52.51], [13.42, 52.51], [13.42, 52.515], [13.41, 52.515], [13.41, 52.51]]] },
  });
  expect(polygon.status, JSON.stringify(polygon.body)).toBe(201);
  // Outside (1 km south), inside, outside again (1 km north), one post each so each is evaluated in turn.
  for (const [lat, m] of [[LAT - 0.009, 12], [LAT, 8], [LAT + 0.009, 4]] as const) {
    expect((await api.post(`/trackables/${id}/locations`, { latitude: lat, longitude: LON, timestamp: minutesAgo(m) })).status).toBe(201);
    const depotEvents = async () => (await api.get(`/events?trackableId=${id}&geofenceId=${fence.body.id}`)).body.data.length;
    await expect.poll(depotEvents, { timeout: 15_000 }).toBe(m === 12 ? 0 : m === 8 ? 1 : 2);
  }

  await page.goto(`/trackables/${id}`);
  const map = page.getByRole("region", { name: "Track map" });
  const entry = map.locator('.fl-transition-entry[title="Entered Depot"]');
  const exit = map.locator('.fl-transition-exit[title="Left Depot"]');
  await expect(entry).toBeVisible();
  await expect(exit).toBeVisible();
  await liveSettled(page);
  // The entry is marked at the inside point, the exit at the point 1 km north of it (higher on the screen).
  const [e, x] = [await entry.boundingBox(), await exit.boundingBox()];
  expect(e!.y).toBeGreaterThan(x!.y);
  await entry.hover();
  await expect(map.locator(".leaflet-tooltip").filter({ hasText: "Entered Depot" })).toBeVisible();
  // Both fences that apply to the trackable are drawn: the circle and the polygon.
  await expect(map.locator("path.fl-fence")).toHaveCount(2);
  // The track's card ends under its playback controls: it is not stretched to the side panels' height.
  const card = (await page.getByRole("region", { name: "Track", exact: true }).boundingBox())!;
  const controls = (await page.getByRole("button", { name: "Play" }).boundingBox())!;
  expect(card.y + card.height - (controls.y + controls.height), "white space under the track's playback controls").toBeLessThan(60);
  await shot(page, "tracks-trackable-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(entry).toBeVisible();
  await noSidewaysScroll(page);
  await shot(page, "tracks-trackable-390");
  errors.expectNone();
});

test("fleet map: overlapping trackables cluster, others keep their labels, fences drawn and in view; no CSP errors", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e tracks fleet"));
  const positions: [string, number, number][] = [
    ["Alpha", LAT, LON],
    ["Bravo", LAT + 0.00001, LON + 0.00001],
    ["Charlie", LAT + 0.02, LON + 0.05],
  ];
  for (const [name, latitude, longitude] of positions) {
    const id = await newTrackable(api, name);
    expect((await api.post(`/trackables/${id}/locations`, { latitude, longitude })).status).toBe(201);
  }
  // A fence away from every trackable: the map frames it too.
  expect((await api.post("/geofences", { name: "Far depot", latitude: LAT - 0.03, longitude: LON - 0.04, radius: 300 })).status).toBe(201);

  await page.goto("/trackables");
  const map = page.getByRole("region", { name: "Map of trackables" });
  const cluster = map.locator(".fl-cluster");
  await expect(cluster).toHaveCount(1);
  await expect(cluster).toHaveText("2");
  await expect(cluster.locator("span")).toHaveAttribute("title", "Alpha, Bravo");
  await expect(map.locator('.fl-marker[title="Charlie"]')).toContainText("Charlie");
  await expect(map.locator('.fl-marker[title="Alpha"]')).toHaveCount(0);
  const fence = map.locator("path.fl-fence");
  await expect(fence).toHaveCount(1);
  await expect(fence).toBeInViewport();
  await shot(page, "tracks-fleet-1280");

  // A click on the cluster zooms in until Alpha and Bravo stand apart (or spread out at the deepest zoom).
  const alpha = map.locator('.fl-marker[title="Alpha"]');
  await expect(async () => {
    if ((await cluster.count()) > 0) await cluster.click();
    await expect(alpha).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await expect(map.locator('.fl-marker[title="Bravo"]')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(map.locator(".fl-cluster")).toHaveCount(1);
  await noSidewaysScroll(page);
  await shot(page, "tracks-fleet-390");
  errors.expectNone();
});

test("a long track is drawn simplified, not cut: every point counted, the line drawn with far fewer", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e tracks long"));
  const id = await newTrackable(api, "Long haul");
  // 6,000 points, one every 10 s over the last ~17 hours: ten straight legs of 600 points each.
  const start = Date.now() - 6000 * 10_000;
  const points = Array.from({ length: 6000 }, (_, i) => {
    const leg = Math.floor(i / 600);
    const along = (i % 600) / 600;
    return { latitude: LAT + (leg % 2 === 0 ? along : 1 - along) * 0.05, longitude: LON + i * 0.00002, timestamp: new Date(start + i * 10_000).toISOString() };
  });
  for (let i = 0; i < points.length; i += 1000) {
    expect((await api.post(`/trackables/${id}/locations`, { locations: points.slice(i, i + 1000) })).status).toBe(201);
  }

  await page.goto(`/trackables/${id}`);
  const track = page.getByTestId("track-map");
  await expect(track).toHaveAttribute("data-point-count", "6000");
  await expect(page.getByTestId("track-point-count")).toContainText("6,000 points");
  const drawn = Number(await track.getAttribute("data-drawn-count"));
  expect(drawn).toBeGreaterThanOrEqual(11); // the ten legs' corners and ends
  expect(drawn).toBeLessThan(100);
  await expect(page.getByTestId("track-simplified")).toContainText(`The map draws ${drawn} of the 6,000 points`);
  await expect(page.getByText(/Showing the latest/)).toHaveCount(0);
  await expect(page.getByText("Newest first, 20 of 6,000 in this range")).toBeVisible();
  errors.expectNone();
});
