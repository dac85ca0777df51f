import { expect, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { shot } from "./support/screens";
import { DESK, PAGES, PHONE, openAs, seedWorkspace, type Workspace } from "./support/workspace";

// Every page (e2e/support/workspace.ts PAGES) at a desk's width and a phone's: axe-core finds no serious or critical
// violation of WCAG 2.1 A/AA, nothing scrolls sideways at 390 px, the skip link is the first stop of the keyboard, and
// a screenshot of each is kept under test-results/screenshots/.
let ws: Workspace;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  ws = await seedWorkspace(browser);
});
test.afterAll(async () => {
  await ws?.receiver.close();
});

for (const viewport of [DESK, PHONE]) {
  test.describe(`at ${viewport.width} px`, () => {
    for (const p of PAGES) {
      test(`${p.name}: axe, no sideways scrolling, skip link`, async ({ browser }) => {
        const { context, page } = await openAs(browser, p.signedIn === false ? null : ws, viewport);
        try {
          await page.goto(p.path(ws));
          await expect(p.ready(page)).toBeVisible();

          const bad = await seriousViolations(page, { contrastByStyle: p.contrastByStyle });
          expect(bad, bad.join("\n")).toEqual([]);

          const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
          // Against the viewport width itself: on a phone (isMobile) Chromium widens innerWidth to fit an overflowing page.
          expect(width.scroll, `${p.name} scrolls sideways at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
          expect(width.inner).toBe(viewport.width);

          await shot(page, `${p.name}-${viewport.width}`);

          // The first Tab reaches "Skip to content", which moves the focus to the page's main content.
          await page.keyboard.press("Tab");
          const skip = page.getByRole("link", { name: "Skip to content" });
          await expect(skip).toBeFocused();
          await expect(skip).toBeInViewport();
          await page.keyboard.press("Enter");
          await expect(page.locator("#main")).toBeFocused();
        } finally {
          await context.close();
        }
      });
    }
  });
}
