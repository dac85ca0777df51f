import { expect, test, type Page } from "@playwright/test";
import { haversineMeters } from "../lib/geofences/evaluation";
import { createGeofenceViaApi, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { test as freshTest } from "./support/fresh-account";
import { shot } from "./support/screens";

// Polygons drawn and edited with real mouse clicks, the noise settings, and the geofence page's occupants and events.

const uniq = (base: string) => `${base} ${Date.now().toString(36).slice(-5)}`;
type Position = [number, number]; // [lon, lat], GeoJSON order

// Web Mercator as Leaflet draws it (256-px tiles): screen pixels ↔ coordinates, from the view the map reports.
const TILE = 256;
function project(lat: number, lon: number, zoom: number) {
  const scale = TILE * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return { x: ((lon + 180) / 360) * scale, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale };
}
function unproject(x: number, y: number, zoom: number): { latitude: number; longitude: number } {
  const scale = TILE * 2 ** zoom;
  const n = Math.PI - (2 * Math.PI * y) / scale;
  return { longitude: (x / scale) * 360 - 180, latitude: (180 / Math.PI) * Math.atan(Math.sinh(n)) };
}

/** The map's current view and box, and converters between page pixels and coordinates. */
async function mapView(page: Page) {
  const map = page.getByTestId("geofence-map");
  const zoom = Number(await map.getAttribute("data-zoom"));
  const [lat, lon] = (await map.getAttribute("data-center"))!.split(",").map(Number) as [number, number];
  // The Leaflet container's own box (its centre is the map's centre).
  const box = (await map.locator(".leaflet-container").boundingBox())!;
  const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const c = project(lat, lon, zoom);
  return {
    zoom,
    mid,
    toLatLng: (px: { x: number; y: number }) => unproject(c.x + (px.x - mid.x), c.y + (px.y - mid.y), zoom),
    toPixel: ([lon2, lat2]: Position) => {
      const p = project(lat2, lon2, zoom);
      return { x: mid.x + (p.x - c.x), y: mid.y + (p.y - c.y) };
    },
  };
}

const at = (p: Position) => ({ latitude: p[1], longitude: p[0] });

/** Opens a new geofence framed on an empty spot of the map, far from every other test's fences, at street level. */
async function openEmptySpot(page: Page) {
  await page.goto("/geofences?new=1");
  const map = page.getByTestId("geofence-map");
  await expect(map).toHaveAttribute("data-drawing", "true");
  await page.keyboard.press("Escape");
  await expect(map).toHaveAttribute("data-drawing", "false");
  // A random spot of the open South Atlantic, typed as a circle, which frames the map on it: spread over hundreds of
  // kilometres, so no fence of an earlier test (or of this one's retry) is a neighbour the map would keep in view.
  const lat = -35 + Math.random() * 15;
  const lon = -25 + Math.random() * 15;
  await page.getByLabel("Latitude").fill(lat.toFixed(6));
  await page.getByLabel("Longitude").fill(lon.toFixed(6));
  await page.getByLabel("Radius (metres)").fill("150");
  await page.getByLabel("Radius (metres)").blur();
  await expect(map).toHaveAttribute("data-zoom", /^1[5-7]$/);
}

test("draw a polygon with mouse clicks, save it, then drag a corner", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "polygon drawing"));
  const name = uniq("Drawn yard");
  await openEmptySpot(page);

  await page.getByRole("radio", { name: "Polygon" }).check();
  const map = page.getByTestId("geofence-map");
  await expect(map).toHaveAttribute("data-drawing-shape", "polygon");
  // Saving before a polygon is drawn says what to do, next to the map; drawing clears it.
  await page.keyboard.press("Escape");
  await expect(map).toHaveAttribute("data-drawing", "false");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create geofence" }).click();
  await expect(page.getByTestId("polygon-errors")).toHaveText(
    "The polygon is required: draw it on the map (click each corner, then the first one again).",
  );
  await page.getByRole("button", { name: "Draw on map" }).click();
  await expect(map).toHaveAttribute("data-drawing-shape", "polygon");
  const view = await mapView(page);
  const clicks = [
    { x: view.mid.x - 110, y: view.mid.y - 70 },
    { x: view.mid.x + 120, y: view.mid.y - 90 },
    { x: view.mid.x + 90, y: view.mid.y + 80 },
    { x: view.mid.x - 20, y: view.mid.y + 30 }, // a concave corner
    { x: view.mid.x - 100, y: view.mid.y + 90 },
  ].map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
  for (const p of clicks) await page.mouse.click(p.x, p.y);
  await shot(page, "geofence-polygon-drawing");
  await page.mouse.click(clicks[0]!.x, clicks[0]!.y); // the first corner closes the polygon
  await expect(map).toHaveAttribute("data-drawing", "false");
  await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 5 corners");
  await expect(page.getByTestId("polygon-errors")).toHaveCount(0);

  await page.getByRole("button", { name: "Create geofence" }).click();
  await expect(page.getByText("Geofence created.")).toBeVisible();
  await expect(page).toHaveURL(/\?geofence=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get("geofence")!;
  const stored = (await api.get(`/geofences/${id}`)).body;
  expect(stored).toMatchObject({ name, shape: "polygon" });
  const ring = stored.geometry.coordinates[0] as Position[];
  expect(stored.geometry.coordinates).toHaveLength(1);
  expect(ring).toHaveLength(clicks.length + 1);
  expect(ring[ring.length - 1]).toEqual(ring[0]);
  const metresPerPx = (156543.03392 * Math.cos((ring[0]![1] * Math.PI) / 180)) / 2 ** view.zoom;
  clicks.forEach((p, i) => {
    const d = haversineMeters(at(ring[i]!), view.toLatLng(p));
    expect(d, `corner ${i + 1} is ${d.toFixed(2)} m from where the mouse clicked`).toBeLessThan(Math.max(2, 1.5 * metresPerPx));
  });
  await shot(page, "geofence-polygon-1280");

  // Drag corner 2 by (+40, +50) px with its handle: only that corner moves, to where the mouse let go.
  await expect(page.getByTestId("map-polygon-hint")).toBeVisible();
  const after = await mapView(page);
  const from = after.toPixel(ring[1]!);
  const to = { x: Math.round(from.x) + 40, y: Math.round(from.y) + 50 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + 25, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  const moved = (await api.get(`/geofences/${id}`)).body.geometry.coordinates[0] as Position[];
  expect(moved).toHaveLength(ring.length);
  const d = haversineMeters(at(moved[1]!), after.toLatLng(to));
  expect(d, `the dragged corner is ${d.toFixed(2)} m from where the mouse let go`).toBeLessThan(Math.max(2, 1.5 * metresPerPx));
  expect(haversineMeters(at(moved[1]!), at(ring[1]!))).toBeGreaterThan(40 * metresPerPx);
  for (const i of [0, 2, 3, 4]) expect(haversineMeters(at(moved[i]!), at(ring[i]!))).toBeLessThan(0.2);

  // At 390 px the map and the form stack, and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 5 corners");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "geofence-polygon-390");
  errors.expectNone();
});

test("a polygon with a hole is drawn with its hole and keeps both rings when other fields are saved", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "polygon with hole"));
  const name = uniq("Courtyard");
  const outer: Position[] = [[2.29, 48.857], [2.3, 48.857], [2.3, 48.86], [2.295, 48.858], [2.29, 48.86], [2.29, 48.857]];
  const hole: Position[] = [[2.292, 48.8572], [2.294, 48.8572], [2.294, 48.8579], [2.292, 48.8579], [2.292, 48.8572]];
  const geometry = { type: "Polygon", coordinates: [outer, hole] };
  const created = await api.post("/geofences", { name, shape: "polygon", geometry });
  expect(created.status).toBe(201);
  await page.goto(`/geofences?geofence=${created.body.id}`);
  await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 5 corners with 1 hole");
  // The hole is a hole: the page's SVG path of the draft polygon has two sub-paths (two "M" commands).
  const path = page.locator('.leaflet-overlay-pane path[stroke="#4f46e5"]');
  await expect(path).toHaveCount(1);
  expect((await path.getAttribute("d"))!.match(/M/g)).toHaveLength(2);
  await page.getByLabel("Name").fill(`${name} (renamed)`);
  await page.getByText("GPS noise, dwell and labels").click();
  await page.getByLabel("Dwell after (seconds)").fill("120");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  expect((await api.get(`/geofences/${created.body.id}`)).body).toMatchObject({ name: `${name} (renamed)`, shape: "polygon", geometry, dwellSeconds: 120 });
  errors.expectNone();
});

test("the noise settings and labels are saved as the API defines them, with errors as sentences", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "noise settings"));
  const fence = await createGeofenceViaApi(api, { name: uniq("Noisy gate") });
  const externalId = uniq("gate").replace(" ", "-");
  await page.goto(`/geofences?geofence=${fence.id}`);
  await expect(page.getByLabel("Name")).toHaveValue(fence.name);
  // Collapsed while every setting is at its default; the summary says so.
  await expect(page.getByTestId("noise-summary")).toHaveText("Defaults: every crossing counts at once, no dwell events.");
  await expect(page.getByLabel("Exit buffer (metres)")).toBeHidden();
  await page.getByText("GPS noise, dwell and labels").click();
  await expect(page.getByLabel("Exit buffer (metres)")).toHaveValue("0");
  await expect(page.getByLabel("Maximum accuracy (metres)")).toHaveValue("");

  await page.getByLabel("Exit buffer (metres)").fill("20000");
  await page.getByLabel("Debounce (seconds)").fill("2.5");
  await page.getByLabel("Metadata (JSON)").fill("[1, 2]");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("#gf-metadata-error")).toHaveText('Metadata must be a JSON object, like {"region": "north"}.');
  await page.getByLabel("Metadata (JSON)").fill('{"region": "north", "gates": 2}');
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("#gf-exit-buffer-error")).toHaveText("Exit buffer must be between 0 and 10000 metres.");
  await expect(page.locator("#gf-debounce-error")).toHaveText("Debounce must be a whole number of seconds, 0–86400.");
  await expect(page.getByLabel("Exit buffer (metres)")).toHaveAttribute("aria-invalid", "true");

  // Each error goes as soon as its field is changed.
  await page.getByLabel("Exit buffer (metres)").fill("25");
  await expect(page.locator("#gf-exit-buffer-error")).toHaveCount(0);
  await expect(page.locator("#gf-debounce-error")).toHaveCount(1);
  await page.getByLabel("Debounce (seconds)").fill("30");
  await expect(page.locator("#gf-debounce-error")).toHaveCount(0);
  await page.getByLabel("Dwell after (seconds)").fill("600");
  await page.getByLabel("Maximum accuracy (metres)").fill("50");
  await page.getByLabel("Tag").fill("gates");
  await page.getByLabel("External ID").fill(externalId);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  expect((await api.get(`/geofences/${fence.id}`)).body).toMatchObject({
    exitBuffer: 25,
    debounceSeconds: 30,
    dwellSeconds: 600,
    maxAccuracy: 50,
    tag: "gates",
    externalId,
    metadata: { region: "north", gates: 2 },
  });

  // Emptying the optional ones sends null (no limit, no tag) and {} — and the form shows what was stored.
  await page.getByLabel("Maximum accuracy (metres)").fill("");
  await page.getByLabel("Tag").fill("");
  await page.getByLabel("Metadata (JSON)").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  expect((await api.get(`/geofences/${fence.id}`)).body).toMatchObject({ maxAccuracy: null, tag: null, metadata: {}, exitBuffer: 25 });
  await page.reload();
  // Opened by itself now that settings are set, with a summary of them.
  await expect(page.getByTestId("noise-summary")).toHaveText("exit buffer 25 m · debounce 30 s · dwell after 600 s");
  await expect(page.getByLabel("Dwell after (seconds)")).toHaveValue("600");
  errors.expectNone();
});

test("the geofence page shows who is inside now and the entry in its recent events", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "occupancy"));
  const trackableName = uniq("Van");
  const van = (await api.post("/trackables", { name: trackableName, type: "vehicle" })).body;
  // A fence of its own, far from the other tests' fences, so the van enters only this one.
  const centre = { latitude: 47.3769 + Math.random() * 0.01, longitude: 8.5417 + Math.random() * 0.01 };
  const fence = await createGeofenceViaApi(api, { name: uniq("Loading bay"), ...centre, radius: 120, trackableIds: [van.id] });
  await page.goto(`/geofences?geofence=${fence.id}`);
  await expect(page.getByTestId("occupants-none")).toBeVisible();

  // Posted while the page is open: the page shows it within seconds, without a reload.
  expect((await api.post(`/trackables/${van.id}/locations`, { ...centre, accuracy: 5 })).status).toBe(201);
  const occupant = page.getByTestId("fence-occupant");
  await expect(occupant).toHaveCount(1, { timeout: 10_000 });
  await expect(occupant.getByRole("link", { name: trackableName })).toHaveAttribute("href", `/trackables/${van.id}`);
  await expect(occupant).toContainText(/since (just now|\d+ (seconds?|minutes?) ago)/);
  // The time is the viewer's local time; the UTC instant is its title.
  await expect(occupant.locator("time")).toHaveAttribute("title", /\d{4}-\d{2}-\d{2}T[\d:.]+Z\)?$/);
  const entry = page.getByTestId("geofence-event").filter({ hasText: "Entered" });
  await expect(entry).toHaveCount(1);
  await expect(entry.getByRole("link", { name: trackableName })).toHaveAttribute("href", `/trackables/${van.id}`);
  await expect(page.getByTestId("geofence-item")).toHaveCount(0); // the form is open, not the list
  // The page-wide "Who is inside now" is not repeated below the open geofence's own occupants…
  await expect(page.getByTestId("occupancy-panel")).toHaveCount(0);
  await shot(page, "geofence-page-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(occupant).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "geofence-page-390");

  // The list shows the count, and the trackable's label is on the map.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: "← All geofences" }).click();
  await expect(page.getByTestId("geofence-item").filter({ hasText: fence.name })).toContainText("1 inside");
  // …and is back with the list, the van in the fence's row.
  await expect(page.locator(`[data-testid="occupancy-row"][data-geofence-id="${fence.id}"]`).getByTestId("occupant")).toContainText(trackableName);

  // Deleting it says what follows, with the count the page knows: the van inside gets an exit, and it does.
  await page.getByTestId("geofence-item").filter({ hasText: fence.name }).click();
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog").getByTestId("delete-geofence-consequences")).toHaveText(
    "The geofence and its assignments are removed. The 1 trackable inside it now gets a geofence.exit event with reason geofence_deleted, " +
      "recorded and sent to the endpoints subscribed to geofence.exit. Its delivery history is kept.",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Delete geofence" }).click();
  await expect(page.getByTestId("geofence-item").filter({ hasText: fence.name })).toHaveCount(0);
  const exits = async () =>
    ((await api.get(`/events?trackableId=${van.id}`)).body.data as { type: string; geofenceId: string; reason: string }[])
      .filter((e) => e.type === "geofence.exit")
      .map((e) => [e.geofenceId, e.reason]);
  await expect.poll(exits, { timeout: 15_000 }).toEqual([[fence.id, "geofence_deleted"]]);
  errors.expectNone();
});

test("the map frames every fence in the list, keeps a selection's neighbours in view and labels only what fits", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "geofence map"));
  const lat = 48.2 + Math.random() * 0.02;
  const lon = 16.37 + Math.random() * 0.02;
  const north = (m: number) => lat + m / 111_195;
  const east = (m: number) => lon + m / (111_195 * Math.cos((lat * Math.PI) / 180));
  const target = await createGeofenceViaApi(api, { name: uniq("Target"), latitude: lat, longitude: lon, radius: 100 });
  const small = await createGeofenceViaApi(api, { name: uniq("Tiny kiosk with a long name"), latitude: north(300), longitude: lon, radius: 10 });
  const big = await createGeofenceViaApi(api, { name: uniq("Big yard"), latitude: lat, longitude: east(450), radius: 250 });
  const walker = (await api.post("/trackables", { name: uniq("Walker"), type: "person" })).body;
  expect((await api.post(`/trackables/${walker.id}/locations`, { latitude: lat, longitude: lon })).status).toBe(201);

  const inView = async (latitude: number, longitude: number) => {
    const view = await mapView(page);
    const p = view.toPixel([longitude, latitude]);
    const box = (await page.getByTestId("geofence-map").boundingBox())!;
    return p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height;
  };

  // Selecting a fence frames it with its neighbours.
  await page.goto(`/geofences?geofence=${target.id}`);
  await expect(page.getByLabel("Name")).toHaveValue(target.name);
  for (const g of [small, big]) {
    const stored = (await api.get(`/geofences/${g.id}`)).body;
    expect(await inView(stored.latitude, stored.longitude), `${g.name} is in view`).toBe(true);
  }
  // The big fence's name fits inside it and is drawn; the tiny fence's would cover it, so it is not (hover shows it).
  // Fence names sit in their own pane under the fences and trackables (a name never hides a trackable's dot).
  const labels = page.getByTestId("geofence-map");
  await expect(labels.locator(".leaflet-fl-fence-labels-pane").getByText(big.name)).toBeVisible();
  await expect(labels.getByText(small.name)).toHaveCount(0);
  // The trackable is labelled at street level.
  await expect(labels.locator(".fl-trackable-label", { hasText: walker.name })).toBeVisible();
  await shot(page, "geofence-map-neighbours");

  // The list zooms out to every fence of the account.
  await page.getByRole("button", { name: "← All geofences" }).click();
  await expect(page.getByTestId("geofence-item").first()).toBeVisible();
  const all = (await api.get("/geofences?limit=100")).body.data as { name: string; latitude: number; longitude: number }[];
  expect(all.length).toBeGreaterThanOrEqual(3);
  await expect.poll(async () => {
    const out: string[] = [];
    for (const g of all) if (!(await inView(g.latitude, g.longitude))) out.push(g.name);
    return out;
  }).toEqual([]);
  errors.expectNone();
});

test("drawing a polygon says why a corner or Finish is refused; a clicked corner can be removed with its button", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "polygon messages"));
  const name = uniq("Explained yard");
  await openEmptySpot(page);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("radio", { name: "Polygon" }).check();
  const map = page.getByTestId("geofence-map");
  await expect(map).toHaveAttribute("data-drawing-shape", "polygon");
  const { mid } = await mapView(page);
  const px = (dx: number, dy: number) => ({ x: Math.round(mid.x + dx), y: Math.round(mid.y + dy) });
  const message = page.getByTestId("polygon-message");

  // Finish with two corners: the polygon stays open and the message next to the buttons says why.
  for (const p of [px(-100, -60), px(100, -60)]) await page.mouse.click(p.x, p.y);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(message).toHaveText("A polygon needs at least 3 corners; only 2 are placed. Click (or tap) on the map to add corners.");
  await expect(message).toHaveAttribute("role", "alert");
  await expect(map).toHaveAttribute("data-drawing", "true");

  // A corner whose side would cross the first side is not placed, and the message says so.
  const third = px(100, 60);
  await page.mouse.click(third.x, third.y);
  await expect(message).toHaveCount(0);
  const crossing = px(0, -120);
  await page.mouse.click(crossing.x, crossing.y);
  await expect(message).toHaveText("That corner was not added: the outline would cross itself there. Pick a point that keeps the sides apart.");
  await shot(page, "geofence-polygon-refused-corner");
  const fourth = px(-100, 60);
  await page.mouse.click(fourth.x, fourth.y);
  await expect(message).toHaveCount(0);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(map).toHaveAttribute("data-drawing", "false");
  await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 4 corners");

  // With a mouse the hint names right-click; clicking a corner offers its own Remove button as well.
  await expect(page.getByTestId("map-polygon-hint")).toContainText("right-click a corner");
  await page.locator(".leaflet-container .marker-icon:not(.marker-icon-middle)").first().click();
  await page.getByRole("button", { name: /^Remove corner \d$/ }).click();
  await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 3 corners");
  await page.locator(".leaflet-container .marker-icon:not(.marker-icon-middle)").first().click();
  await page.getByRole("button", { name: /^Remove corner \d$/ }).click();
  await expect(message).toHaveText("A polygon needs at least 3 corners: this one cannot be removed.");
  await page.getByRole("button", { name: "Create geofence" }).click();
  await expect(page.getByText("Geofence created.")).toBeVisible();
  await expect(page).toHaveURL(/\?geofence=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get("geofence")!;
  expect((await api.get(`/geofences/${id}`)).body.geometry.coordinates[0]).toHaveLength(4);
  errors.expectNone();
});

// A new, empty account: the map frames the selected fence with its neighbours, and other specs' fences would shrink
// this one until its corner handles overlap.
freshTest.describe("on a touch screen", () => {
  freshTest.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  freshTest("the polygon hint names the tap, and a tapped corner is removed with the Remove corner button", async ({ page, request }) => {
    const errors = watchConsole(page);
    const api = apiClient(request, await createApiKey(page, "polygon on touch"));
    const [lon, lat] = [-5.7 + Math.random() * 0.02, -15.93 + Math.random() * 0.02];
    const ring: Position[] = [[lon, lat], [lon + 0.004, lat], [lon + 0.004, lat + 0.003], [lon + 0.002, lat + 0.004], [lon, lat + 0.003], [lon, lat]];
    const created = await api.post("/geofences", { name: uniq("Touch yard"), shape: "polygon", geometry: { type: "Polygon", coordinates: [ring] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fence = created.body as { id: string };
    await page.goto(`/geofences?geofence=${fence.id}`);
    await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 5 corners");
    await expect(page.getByTestId("polygon-note")).toContainText("tap a corner, then Remove corner");
    await expect(page.getByTestId("polygon-note")).not.toContainText("right-click");
    await expect(page.getByTestId("map-polygon-hint")).toContainText("tap a corner, then Remove corner");
    await page.locator(".leaflet-container .marker-icon:not(.marker-icon-middle)").nth(3).tap();
    await page.getByRole("button", { name: "Remove corner 4" }).tap();
    await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 4 corners");
    await shot(page, "geofence-polygon-touch-390");
    await page.getByRole("button", { name: "Save changes" }).tap();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    const stored = (await api.get(`/geofences/${fence.id}`)).body.geometry.coordinates[0] as Position[];
    expect(stored).toEqual([ring[0], ring[1], ring[2], ring[4], ring[0]]);
    errors.expectNone();
  });
});
