import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startReceiver } from "../../tests/support/receiver";
import { apiClient, createApiKey } from "./api";
import { signUpFresh } from "./fresh-account";

export const PHONE = { width: 390, height: 844 } as const;
export const DESK = { width: 1280, height: 800 } as const;

/**
 * A fresh account with one of everything the dashboard shows: a key, a trackable with a track, a geofence with a
 * webhook, an account endpoint, a test delivery and a share link. Built once per spec file (beforeAll), through the UI
 * (sign-up, API key) and the API.
 */
export async function seedWorkspace(browser: Browser) {
  const fresh = await signUpFresh(browser);
  const receiver = await startReceiver({ secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" });
  const key = await createApiKey(fresh.page, "pages spec");
  const api = apiClient(fresh.page.request, key);
  const trackable = (await api.post("/trackables", { name: "Courier with a rather long name, Maya", type: "person" })).body;
  const now = Date.now();
  const at = (min: number) => new Date(now - min * 60_000).toISOString();
  const posted = await api.post(`/trackables/${trackable.id}/locations`, {
    locations: [
      { latitude: 52.5, longitude: 13.39, timestamp: at(30), battery: 70 },
      { latitude: 52.51, longitude: 13.4, timestamp: at(20), battery: 66 },
      { latitude: 52.52, longitude: 13.405, timestamp: at(5), accuracy: 8, battery: 64 },
    ],
  });
  expect(posted.status).toBe(201);
  const geofence = await api.post("/geofences", {
    name: "Depot",
    latitude: 52.52,
    longitude: 13.405,
    radius: 300,
    notificationType: "webhook",
    webhookUrl: `${receiver.url}?geofence=depot-with-a-long-query-string-that-does-not-wrap-by-itself`,
  });
  expect(geofence.status, JSON.stringify(geofence.body)).toBe(201);
  const webhook = await api.post("/webhooks", {
    url: `${receiver.url}/an/endpoint/with/a/rather/long/path/that/must/wrap/on/a/phone`,
    events: ["geofence.entry", "geofence.exit", "location.updated"],
    description: "Dispatch",
  });
  expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
  const test = await api.post(`/webhooks/${webhook.body.id}/test`, {});
  expect(test.status, JSON.stringify(test.body)).toBe(200);
  const delivery = (await api.get(`/webhook-deliveries?webhookId=${webhook.body.id}`)).body.data[0];
  const share = await api.post("/share-links", { trackableId: trackable.id, name: "For the customer", expiresIn: 3600 });
  expect(share.status).toBe(201);
  const storageState = await fresh.context.storageState();
  await fresh.context.close();
  return {
    user: fresh.user,
    storageState,
    receiver,
    ids: { trackable: trackable.id as string, geofence: geofence.body.id as string, webhook: webhook.body.id as string, delivery: delivery.id as string },
    shareUrl: new URL(share.body.url as string).pathname,
  };
}
export type Workspace = Awaited<ReturnType<typeof seedWorkspace>>;

/** A page of the seeded account (or a visitor's, signed out) at a viewport. */
export async function openAs(browser: Browser, ws: Workspace | null, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const phone = viewport.width < 640;
  const context = await browser.newContext({
    storageState: ws ? ws.storageState : { cookies: [], origins: [] },
    viewport,
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  return { context, page: await context.newPage() };
}

export interface PageUnderTest {
  /** Names the screenshots (`<name>-1280.png`, `<name>-390.png`) and the tests. */
  name: string;
  path: (ws: Workspace) => string;
  /** Signed in as the seeded account (default) or as a visitor. */
  signedIn?: boolean;
  /** What shows once the page is complete (maps render on the client, after the HTML). */
  ready: (page: Page) => ReturnType<Page["locator"]>;
  /** A long page generated from a repeated structure: color contrast checked once per distinct look (e2e/support/axe.ts). */
  contrastByStyle?: boolean;
  /** Its checks take far longer than a page's (axe over the whole API reference): its test gets three times the time. */
  slow?: boolean;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { level: 1, name }).first();
const map = (page: Page) => page.locator(".leaflet-container").first();

/** Every page of the app: add a line here for a new page and every check of a11y.spec.ts covers it. */
export const PAGES: PageUnderTest[] = [
  { name: "home", path: () => "/", signedIn: false, ready: heading(/Know where your fleet is/) },
  { name: "sign-in", path: () => "/sign-in", signedIn: false, ready: heading("Sign in") },
  { name: "sign-up", path: () => "/sign-up", signedIn: false, ready: heading("Create your account") },
  { name: "api-docs", path: () => "/docs/api", signedIn: false, ready: heading(/Fenceline/), contrastByStyle: true, slow: true },
  { name: "share", path: (ws) => ws.shareUrl, signedIn: false, ready: (page) => page.getByTestId("share-marker") },
  { name: "not-found", path: () => "/no/such/page", signedIn: false, ready: heading("This page does not exist") },
  { name: "trackables", path: () => "/trackables", ready: map },
  { name: "trackable", path: (ws) => `/trackables/${ws.ids.trackable}`, ready: map },
  { name: "geofences", path: () => "/geofences", ready: map },
  { name: "geofence-selected", path: (ws) => `/geofences?geofence=${ws.ids.geofence}`, ready: map },
  { name: "geofence-new", path: () => "/geofences?new=1", ready: map },
  { name: "webhooks", path: () => "/webhooks", ready: heading("Webhooks") },
  { name: "webhook-new", path: () => "/webhooks/new", ready: heading("New endpoint") },
  { name: "webhook", path: (ws) => `/webhooks/${ws.ids.webhook}`, ready: heading(/./) },
  { name: "events", path: () => "/events", ready: heading("Events") },
  { name: "events-filtered", path: (ws) => `/events?trackableId=${ws.ids.trackable}`, ready: heading("Events") },
  { name: "deliveries", path: () => "/deliveries", ready: heading("Deliveries") },
  { name: "delivery", path: (ws) => `/deliveries/${ws.ids.delivery}`, ready: heading(/./) },
  { name: "api-keys", path: () => "/api-keys", ready: heading("API keys") },
  { name: "account", path: () => "/account", ready: heading(/./) },
  { name: "dashboard-not-found", path: () => "/trackables/00000000-0000-4000-8000-000000000000", ready: heading(/Not found/) },
];
