import { expect, test } from "@playwright/test";
import { startReceiver } from "../tests/support/receiver";
import { haversineMeters } from "../lib/geofences/evaluation";
import { createGeofenceViaApi, metresPerPixel, watchConsole } from "./events-support";
import { apiClient, createApiKey } from "./support/api";
import { shot } from "./support/screens";

const SECRET = "e2e_geofence_secret_1234";
// Names unique to the test run: a reused server (or --repeat-each) keeps the geofences of earlier runs.
const uniq = (base: string) => `${base} ${Date.now().toString(36).slice(-5)}`;

test("draw a geofence with the mouse, then move and resize it with its handles", async ({ page, request }) => {
  const errors = watchConsole(page);
  const drawnName = uniq("Drawn depot");
  const api = apiClient(request, await createApiKey(page, "geofence editor"));

  await page.goto("/geofences");
  await expect(page.getByRole("heading", { name: "Geofences", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "New geofence" }).click();
  const map = page.getByTestId("geofence-map");
  await expect(map).toHaveAttribute("data-drawing", "true");
  await expect(map).toHaveAttribute("data-zoom", /\d+/);
  // The map frames the account's other geofences; zoom in (with the map's own button) to a street-level view.
  let zoom = Number(await map.getAttribute("data-zoom"));
  while (zoom < 13) {
    await page.getByRole("button", { name: "Zoom in" }).click();
    await expect(map).toHaveAttribute("data-zoom", String(zoom + 1));
    zoom += 1;
  }
  await expect(map).toHaveAttribute("data-zoom", String(zoom)); // whole zoom levels (zoomSnap 1)

  // Press in the middle of the map, drag 120 px to the right, release.
  const [centerLat, centerLon] = (await map.getAttribute("data-center"))!.split(",").map(Number) as [number, number];
  const box = (await map.boundingBox())!;
  const start = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
  const dragPx = 120;
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + dragPx / 2, start.y, { steps: 5 });
  await page.mouse.move(start.x + dragPx, start.y, { steps: 5 });
  await expect(page.getByText(/release to finish/)).toBeVisible();
  await shot(page, "geofence-drawing");
  await page.mouse.up();
  await expect(map).toHaveAttribute("data-drawing", "false");

  const lat = Number(await page.getByLabel("Latitude").inputValue());
  const lon = Number(await page.getByLabel("Longitude").inputValue());
  const radius = Number(await page.getByLabel("Radius (metres)").inputValue());
  // The centre is where the mouse went down (the map's centre, to within a pixel), not merely what the form says.
  const pixel = metresPerPixel(centerLat, zoom);
  expect(haversineMeters({ latitude: lat, longitude: lon }, { latitude: centerLat, longitude: centerLon })).toBeLessThan(2 * pixel);
  const expected = dragPx * metresPerPixel(lat, zoom);
  expect(Math.abs(radius - expected) / expected).toBeLessThan(0.05);
  await expect(page.getByTestId("map-radius")).toHaveText(`Radius ${radius.toLocaleString("en-GB")} m`);

  // The name field has the focus after drawing.
  await expect(page.getByLabel("Name")).toBeFocused();
  await page.keyboard.type(drawnName);
  await page.getByRole("button", { name: "Create geofence" }).click();
  await expect(page.getByText("Geofence created.")).toBeVisible();
  await expect(page).toHaveURL(/\/geofences\?geofence=[0-9a-f-]{36}$/);

  const list = await api.get("/geofences");
  const drawn = list.body.data.find((g: { name: string }) => g.name === drawnName);
  expect(drawn).toMatchObject({ latitude: lat, longitude: lon, radius, notificationType: "none", trackableIds: null });

  // Resize: drag the edge handle 40 px further out; move: drag the centre handle.
  const edge = page.getByTitle("Drag to resize the geofence");
  const edgeBox = (await edge.boundingBox())!;
  const edgeAt = { x: edgeBox.x + edgeBox.width / 2, y: edgeBox.y + edgeBox.height / 2 };
  await page.mouse.move(edgeAt.x, edgeAt.y);
  await page.mouse.down();
  await page.mouse.move(edgeAt.x + 40, edgeAt.y, { steps: 6 });
  await page.mouse.up();
  const resized = Number(await page.getByLabel("Radius (metres)").inputValue());
  const expectedResized = (dragPx + 40) * metresPerPixel(lat, zoom);
  expect(Math.abs(resized - expectedResized) / expectedResized).toBeLessThan(0.05);
  await expect(page.getByText("Unsaved changes")).toBeVisible();

  const centre = page.getByTitle("Drag to move the geofence");
  const centreBox = (await centre.boundingBox())!;
  const centreAt = { x: centreBox.x + centreBox.width / 2, y: centreBox.y + centreBox.height / 2 };
  await page.mouse.move(centreAt.x, centreAt.y);
  await page.mouse.down();
  await page.mouse.move(centreAt.x - 60, centreAt.y + 30, { steps: 6 });
  await page.mouse.up();
  const movedLat = Number(await page.getByLabel("Latitude").inputValue());
  const movedLon = Number(await page.getByLabel("Longitude").inputValue());
  expect(movedLat).toBeLessThan(lat); // 30 px down is south
  expect(movedLon).toBeLessThan(lon); // 60 px left is west
  await shot(page, "geofence-editing");

  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  const saved = await api.get(`/geofences/${drawn.id}`);
  expect(saved.body).toMatchObject({ latitude: movedLat, longitude: movedLon, radius: resized });

  // The URL opens the same geofence; the list selects on click.
  await page.reload();
  await expect(page.getByLabel("Name")).toHaveValue(drawnName);
  await page.getByRole("button", { name: "← All geofences" }).click();
  await expect(page.getByTestId("geofence-item").filter({ hasText: drawnName })).toContainText("All trackables");
  await shot(page, "geofence-list");
  errors.expectNone();
});

test("create a geofence by typing, with errors next to the fields, then delete it", async ({ page, request }) => {
  const errors = watchConsole(page);
  const typedName = uniq("Typed yard");
  const api = apiClient(request, await createApiKey(page, "typed geofence"));
  await page.goto("/geofences?new=1");
  await expect(page.getByTestId("geofence-map")).toHaveAttribute("data-drawing", "true");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("geofence-map")).toHaveAttribute("data-drawing", "false");

  await page.getByLabel("Name").fill(typedName);
  await page.getByLabel("Latitude").fill("48.8584");
  await page.getByLabel("Longitude").fill("2.2945");
  await page.getByLabel("Radius (metres)").fill("0");
  await page.getByRole("radio", { name: "Webhook" }).check();
  await page.getByLabel("Webhook URL").fill("ftp://example.com/hook");
  await page.getByRole("button", { name: "Create geofence" }).click();
  await expect(page.locator("#gf-radius-error")).toHaveText("Radius must be between 1 and 100000 metres.");
  await expect(page.locator("#gf-url-error")).toContainText("must use http or https");
  await expect(page.getByLabel("Radius (metres)")).toHaveAttribute("aria-invalid", "true");
  await shot(page, "geofence-errors");

  await page.getByLabel("Radius (metres)").fill("350");
  await page.getByRole("radio", { name: "None" }).check();
  await page.getByLabel("Webhook URL").fill("");
  await page.getByLabel("Radius (metres)").press("Enter");
  await expect(page.getByText("Geofence created.")).toBeVisible();
  const created = (await api.get("/geofences")).body.data.find((g: { name: string }) => g.name === typedName);
  expect(created).toMatchObject({ latitude: 48.8584, longitude: 2.2945, radius: 350, notificationType: "none" });

  // Leaving unsaved edits asks first: dismissing keeps them, accepting discards them.
  await page.getByLabel("Name").fill(`${typedName} (edited)`);
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("button", { name: "← All geofences" }).click();
  await expect(page.getByLabel("Name")).toHaveValue(`${typedName} (edited)`);
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "← All geofences" }).click();
  await page.getByTestId("geofence-item").filter({ hasText: typedName }).click();
  await expect(page.getByLabel("Name")).toHaveValue(typedName);

  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog").getByTestId("delete-geofence-consequences")).toContainText(
    "No trackable is inside it now; any that is inside when it is deleted gets a geofence.exit event with reason geofence_deleted",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Delete geofence" }).click();
  // Back on the list (the delete has answered: the form closes), without the deleted geofence.
  await expect(page.getByRole("button", { name: "← All geofences" })).toHaveCount(0);
  await expect(page.getByTestId("geofence-item").filter({ hasText: typedName })).toHaveCount(0);
  expect((await api.get(`/geofences/${created.id}`)).status).toBe(404);
  errors.expectNone();
});

test("a link to a geofence opens it in the editor, and the nav's Geofences link closes it", async ({ page, request }) => {
  const errors = watchConsole(page);
  const name = uniq("Linked yard");
  const other = uniq("Other yard");
  const api = apiClient(request, await createApiKey(page, "linked geofence"));
  const fence = await createGeofenceViaApi(api, { name });
  const second = await createGeofenceViaApi(api, { name: other });
  await page.goto("/geofences");
  // "Who is inside now" links each geofence: a navigation from outside the editor, which it follows.
  await page.locator(`[data-testid="occupancy-row"][data-geofence-id="${fence.id}"]`).getByRole("link", { name }).click();
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await expect(page).toHaveURL(new RegExp(`/geofences\\?geofence=${fence.id}$`));
  // The editor's own choices move the URL along, and stay chosen once it has caught up.
  await page.getByRole("button", { name: "← All geofences" }).click();
  await page.getByTestId("geofence-item").filter({ hasText: other }).click();
  await expect(page).toHaveURL(new RegExp(`/geofences\\?geofence=${second.id}$`));
  await expect(page.getByLabel("Name")).toHaveValue(other);
  // The nav's plain /geofences while one is open: back to the list.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Geofences" }).click();
  await expect(page.getByTestId("geofence-item").filter({ hasText: name })).toBeVisible();
  await expect(page).toHaveURL(/\/geofences$/);
  errors.expectNone();
});

test("set a webhook with a secret and send a signed test delivery", async ({ page, request }) => {
  const errors = watchConsole(page);
  const hookedName = uniq("Hooked depot");
  const api = apiClient(request, await createApiKey(page, "test webhook"));
  const receiver = await startReceiver({ secret: SECRET });
  try {
    const fence = await createGeofenceViaApi(api, { name: hookedName });
    await page.goto(`/geofences?geofence=${fence.id}`);
    await expect(page.getByLabel("Name")).toHaveValue(hookedName);
    await page.getByRole("radio", { name: "Webhook" }).check();
    await page.getByLabel("Webhook URL").fill(receiver.url);
    // The webhook gets every event of the fence, dwells included, and its help says so.
    await expect(page.locator("#gf-url-hint")).toHaveText(
      "Receives this geofence's geofence.entry, geofence.exit and geofence.dwell events (dwell once “Dwell after” is set) as signed JSON POSTs.",
    );
    await expect(page.getByTestId("gf-secret-status")).toHaveText("Not set");
    await page.getByRole("button", { name: "Set a secret" }).click();
    await page.getByLabel("New signing secret").fill(SECRET);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    await expect(page.getByTestId("gf-secret-status")).toHaveText("Set");
    await expect(page.getByText(SECRET)).toHaveCount(0); // write-only: never shown back
    expect((await api.get(`/geofences/${fence.id}`)).body).toMatchObject({ notificationType: "webhook", webhookUrl: receiver.url, webhookSecretSet: true });

    await page.getByLabel("Event to send").selectOption("geofence.exit");
    await page.getByRole("button", { name: "Send test webhook" }).click();
    await expect(page.getByText("Test webhook sent for exit event")).toBeVisible();
    const [hit] = await receiver.waitFor(1);
    expect(hit!.signatureValid).toBe(true);
    expect(hit!.headers["x-service-event"]).toBe("geofence.exit");
    expect(hit!.json.geofence.id).toBe(fence.id);
    await shot(page, "geofence-test-webhook");

    await page.getByRole("link", { name: "View the delivery" }).click();
    await expect(page).toHaveURL(new RegExp(`/deliveries/${hit!.headers["x-service-delivery"]}$`));
    await expect(page.getByRole("heading", { name: "geofence.exit" })).toBeVisible();
    await expect(page.getByTestId("delivery-status")).toHaveText("Succeeded");
    await expect(page.getByTestId("delivery-attempt")).toHaveCount(1);

    await page.goto("/deliveries");
    const row = page.getByTestId("delivery-row").filter({ hasText: hookedName });
    await expect(row).toContainText("Test");
    await expect(row).toContainText("Sample beacon");
    await expect(row).toContainText("200");

    // Replace, then remove the secret: the status follows, the value never shows.
    await page.goto(`/geofences?geofence=${fence.id}`);
    await page.getByRole("button", { name: "Remove secret" }).click();
    await expect(page.getByTestId("gf-secret-status")).toHaveText("Will be removed");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("gf-secret-status")).toHaveText("Not set");
    expect((await api.get(`/geofences/${fence.id}`)).body.webhookSecretSet).toBe(false);
    errors.expectNone();
  } finally {
    await receiver.close();
  }
});

test("a failing test webhook explains itself and links to its failed delivery", async ({ page, request }) => {
  const errors = watchConsole(page);
  const brokenName = uniq("Broken hook");
  const api = apiClient(request, await createApiKey(page, "failing test webhook"));
  const receiver = await startReceiver({ respond: () => ({ status: 500, body: "boom" }) });
  try {
    const fence = await createGeofenceViaApi(api, { name: brokenName, notificationType: "webhook", webhookUrl: receiver.url });
    await page.goto(`/geofences?geofence=${fence.id}`);
    await page.getByRole("button", { name: "Send test webhook" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Check your endpoint configuration." })).toBeVisible();
    await page.getByRole("link", { name: "View the failed delivery" }).click();
    await expect(page).toHaveURL(/\/deliveries\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("delivery-status")).toHaveText("Failed");
    const attempt = page.getByTestId("delivery-attempt");
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText("500");
    errors.expectNone();
  } finally {
    await receiver.close();
  }
});

test("a polygon made through the API is drawn as a polygon and keeps its rings when renamed in the editor", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "polygon geofence"));
  const name = uniq("Polygon yard");
  const geometry = { type: "Polygon", coordinates: [[[2.29, 48.857], [2.30, 48.857], [2.30, 48.86], [2.295, 48.858], [2.29, 48.86], [2.29, 48.857]]] };
  const created = await api.post("/geofences", { name, shape: "polygon", geometry });
  expect(created.status).toBe(201);
  await page.goto("/geofences");
  // The list item opens the polygon's form; the list names its shape.
  await expect(page.getByTestId("geofence-item").filter({ hasText: name })).toContainText("Polygon, 5 corners");
  await page.getByTestId("geofence-item").filter({ hasText: name }).click();
  await expect(page.getByTestId("polygon-note")).toContainText("A polygon of 5 corners");
  await page.getByLabel("Name").fill(`${name} (renamed)`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  const after = (await api.get(`/geofences/${created.body.id}`)).body;
  expect(after).toMatchObject({ name: `${name} (renamed)`, shape: "polygon", geometry });
  errors.expectNone();
});
