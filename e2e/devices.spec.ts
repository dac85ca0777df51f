import { expect, test, type Page } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { apiClient, createApiKey } from "./support/api";
import { watchConsole } from "./support/console";
import { shot } from "./support/screens";

// "Connect a device" on the trackable page: a token is created and shown once, the set-up QR code is read back by
// decoding its image (as a phone's camera would), and the app's request made with what the code carries stores a
// point that the page then shows with its source.

/** Decodes the QR code image of the panel: the PNG behind its data URL, through jsQR. */
async function readQr(page: Page): Promise<string> {
  const img = page.getByTestId("device-qr");
  await expect(img).toHaveAttribute("src", /^data:image\/png;base64,/);
  const src = (await img.getAttribute("src"))!;
  const png = PNG.sync.read(Buffer.from(src.slice(src.indexOf(",") + 1), "base64"));
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded, "the QR code decodes").not.toBeNull();
  return decoded!.data;
}

async function newTrackable(page: Page, request: Parameters<typeof apiClient>[0], name: string) {
  const api = apiClient(request, await createApiKey(page, `e2e devices ${name}`));
  const created = await api.post("/trackables", { name, type: "person" });
  expect(created.status).toBe(201);
  return { api, id: created.body.id as string };
}

test("OwnTracks: create a token, scan the configuration QR code, post as the app with it, see the point; revoke", async ({ page, request, baseURL }) => {
  const errors = watchConsole(page);
  const { id } = await newTrackable(page, request, "Anna");
  await page.goto(`/trackables/${id}`);
  const panel = page.getByTestId("connect-device");
  await expect(panel.getByRole("heading", { name: "Connect a device" })).toBeVisible();
  await expect(panel.getByTestId("device-server-url")).toHaveText(`${baseURL}/ingest/owntracks`);
  // The suite's APP_URL is http://localhost: the panel says a phone cannot use it, and why.
  const note = panel.getByTestId("phone-reach-note");
  await expect(note).toContainText("A phone cannot use these URLs as they are.");
  await expect(note).toContainText("which on a phone is the phone itself");
  await expect(note).toContainText("OwnTracks and Overland need https");
  await panel.getByRole("button", { name: "Create a token for OwnTracks" }).click();
  const token = (await panel.getByTestId("new-device-token").textContent())!;
  expect(token).toMatch(/^fldev[A-Za-z0-9]{32}$/);

  // The remote configuration link of the booklet (owntracks:///config?inline=<base64 of a _type: configuration>).
  const link = await readQr(page);
  expect(link).toMatch(/^owntracks:\/\/\/config\?inline=/);
  const config = JSON.parse(Buffer.from(decodeURIComponent(link.split("inline=")[1]!), "base64").toString("utf8"));
  expect(config).toEqual({ _type: "configuration", mode: 3, url: `${baseURL}/ingest/owntracks`, auth: true, username: "fenceline", password: token });
  await shot(page, "devices-owntracks-1280");

  // What the app then sends (HTTP mode: JSON, Basic credentials from the imported configuration).
  const tst = Math.floor(Date.now() / 1000) - 5;
  const post = () =>
    request.post(config.url, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        Authorization: `Basic ${Buffer.from(`${config.username}:${config.password}`).toString("base64")}`,
        Connection: "close",
      },
      data: JSON.stringify({ _type: "location", lat: 52.5163, lon: 13.3777, tst, acc: 9, batt: 54, vel: 18, tid: "an" }),
    });
  const res = await post();
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual([]);

  await page.reload();
  await expect(page.getByTestId("last-point-source")).toContainText("Last point from OwnTracks");
  const latest = page.getByTestId("latest-details");
  await expect(latest).toContainText("52.516300");
  await expect(latest).toContainText("13.377700");
  await expect(latest).toContainText("5 m/s (18 km/h)");
  await expect(page.getByTestId("latest-source")).toHaveText("OwnTracks");
  // The token is listed by name and prefix, never in full; its use is recorded off the request's path.
  const row = page.getByTestId("device-token");
  await expect(row).toContainText("OwnTracks");
  await expect(row).toContainText(`${token.slice(0, 11)}…`);
  await expect(page.getByTestId("connect-device")).not.toContainText(token);
  await expect(async () => {
    await page.reload();
    await expect(row).not.toContainText("Last used never", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByTestId("device-token")).toHaveCount(0);
  expect((await post()).status()).toBe(401);
  errors.expectNone();
});

test("Overland and Traccar Client: their set-up links carry the endpoint and the token, and posting with them stores points", async ({ page, request, baseURL }) => {
  const { api, id } = await newTrackable(page, request, "Van 3");
  await page.goto(`/trackables/${id}`);
  const panel = page.getByTestId("connect-device");

  await panel.getByText("Overland", { exact: true }).click();
  await expect(panel.getByTestId("device-server-url")).toHaveText(`${baseURL}/ingest/overland`);
  await panel.getByRole("button", { name: "Create a token for Overland" }).click();
  const setup = new URL(await readQr(page)); // overland://setup?url=…&token=…
  expect(setup.protocol).toBe("overland:");
  expect(setup.searchParams.get("url")).toBe(`${baseURL}/ingest/overland`);
  const overlandToken = setup.searchParams.get("token")!;
  await expect(panel.getByTestId("new-device-token")).toHaveText(overlandToken);
  const batch = await request.post(setup.searchParams.get("url")!, {
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${overlandToken}`, Connection: "close" },
    data: JSON.stringify({
      locations: [{ type: "Feature", geometry: { type: "Point", coordinates: [13.4, 52.5] }, properties: { timestamp: new Date(Date.now() - 60_000).toISOString(), horizontal_accuracy: 10, battery_level: 0.5 } }],
    }),
  });
  expect(await batch.json()).toEqual({ result: "ok" });

  await panel.getByText("Traccar Client", { exact: true }).click();
  await panel.getByRole("button", { name: "Create a token for Traccar Client" }).click();
  // The app's own scheme, which the camera and a tap on the phone open in Traccar Client: never the ingest URL itself,
  // which a browser would GET without a position.
  const qr = await readQr(page);
  const traccar = new URL(qr);
  expect(traccar.protocol).toBe("org.traccar.client:");
  await expect(panel.getByRole("link", { name: "On this phone? Open the app with this link instead" })).toHaveAttribute("href", qr);
  const serverUrl = traccar.searchParams.get("url")!;
  expect(serverUrl).toBe(`${baseURL}/ingest/traccar`);
  const deviceId = traccar.searchParams.get("id")!;
  await expect(panel.getByTestId("new-device-token")).toHaveText(deviceId);
  const ping = await request.post(`${serverUrl}?id=${deviceId}&lat=52.51&lon=13.41&timestamp=${Math.floor(Date.now() / 1000)}&speed=10&batt=77`, {
    headers: { Connection: "close" },
  });
  expect(ping.status()).toBe(200);

  const stored = (await api.get(`/trackables/${id}/locations?order=asc`)).body.data;
  expect(stored.map((l: { source: string; battery: number }) => [l.source, l.battery])).toEqual([["overland", 50], ["traccar", 77]]);
  await page.reload();
  await expect(page.getByTestId("device-token")).toHaveCount(2);
  await expect(page.getByTestId("last-point-source")).toContainText("Traccar Client, OsmAnd or GPSLogger");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the panel, its QR code and every app's settings fit a 390 px screen", async ({ page, request }) => {
    const { id } = await newTrackable(page, request, "Courier Lea");
    await page.goto(`/trackables/${id}`);
    const panel = page.getByTestId("connect-device");
    const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await panel.getByRole("button", { name: "Create a token for OwnTracks" }).click();
    await expect(page.getByTestId("device-qr")).toBeVisible();
    await noOverflow();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, "devices-owntracks-390");
    for (const app of ["Traccar Client", "Overland", "GPSLogger", "OsmAnd"]) {
      await panel.getByText(app, { exact: true }).click();
      await expect(page.getByTestId("device-steps")).toBeVisible();
      await noOverflow();
    }
    await shot(page, "devices-osmand-390");
  });
});
