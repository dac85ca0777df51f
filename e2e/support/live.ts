import { expect, type Page } from "@playwright/test";

/**
 * Waits until a live page has listened and shown what changed while it loaded: its stream is connected, the refresh
 * that `ready` asks for has run, and no refresh is under way. A refresh re-renders the page from the server, so a
 * click, a typed field or a measured element taken while one is in flight can be overtaken by it (the page it renders
 * is the one it was asked for); on a slow server that takes seconds.
 */
export async function liveSettled(page: Page): Promise<void> {
  const live = page.getByTestId("live-indicator").first();
  await expect(live).toHaveAttribute("data-connected", "true");
  await expect(live).toHaveAttribute("data-refreshes", /^[1-9]/);
  await expect(live).toHaveAttribute("data-refreshing", "false");
}
