import { expect, type Page, type Request } from "@playwright/test";

/**
 * Waits until a live page has settled: hydrated, its stream connected, the refresh that `ready` asks for run and none
 * under way. Before that the page still moves: times are swapped to the viewer's zone after hydration and the map
 * loads, so on a slow machine a click aimed at an element lower down can land on what moved under it, and an element
 * measured then is measured again in another place.
 */
export async function liveSettled(page: Page): Promise<void> {
  const live = page.getByTestId("live-indicator").first();
  await expect(live).toHaveAttribute("data-connected", "true");
  await expect(live).toHaveAttribute("data-refreshes", /^[1-9]/);
  await expect(live).toHaveAttribute("data-refreshing", "false");
}

/**
 * Holds the page's next live refresh (its request for the page's server components again) until `release()`, to act
 * while a slow refresh is under way. `held` resolves once one is held: make a change the page shows, await `held`.
 */
export async function holdNextRefresh(page: Page): Promise<{ held: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let onHeld!: () => void;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  let holding = true;
  await page.route("**/*", async (route) => {
    if (holding && isRefresh(page, route.request())) {
      holding = false;
      onHeld();
      await released;
    }
    await route.fallback();
  });
  return { held, release };
}

/** A request for the server components of the page at its current URL, not a prefetch: a refresh (a navigation asks for another URL). */
function isRefresh(page: Page, request: Request): boolean {
  const headers = request.headers();
  if (headers["rsc"] !== "1" || headers["next-router-prefetch"]) return false;
  const asked = new URL(request.url());
  asked.searchParams.delete("_rsc");
  const here = new URL(page.url());
  here.hash = "";
  return asked.toString() === here.toString();
}
