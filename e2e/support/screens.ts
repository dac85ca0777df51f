import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { DESK, PHONE } from "./workspace";

/** A full-page screenshot kept as an artifact (test-results/screenshots/<name>.png) and attached to the report. */
export async function shot(page: Page, name: string): Promise<void> {
  const path = `test-results/screenshots/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: "image/png" });
}

/**
 * The page at 1280 and 390 px: axe finds no serious or critical WCAG 2.1 AA violation, nothing scrolls sideways, and a
 * screenshot of each (`<name>-1280`, `<name>-390`); the viewport is left at 1280 px.
 */
export async function expectAccessibleAtBothWidths(page: Page, name: string): Promise<void> {
  for (const viewport of [DESK, PHONE]) {
    await page.setViewportSize(viewport);
    const bad = await seriousViolations(page);
    expect(bad, bad.join("\n")).toEqual([]);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll, `${name} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    await shot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize(DESK);
}
