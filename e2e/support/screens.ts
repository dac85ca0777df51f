import type { Page } from "@playwright/test";
import { test } from "@playwright/test";

/** A full-page screenshot kept as an artifact (test-results/screenshots/<name>.png) and attached to the report. */
export async function shot(page: Page, name: string): Promise<void> {
  const path = `test-results/screenshots/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}
