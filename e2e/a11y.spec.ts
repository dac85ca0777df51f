import { expect, test, type BrowserContext } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { shot } from "./support/screens";
import { DESK, PAGES, PHONE, openAs, seedWorkspace, type Workspace } from "./support/workspace";

// Every page (e2e/support/workspace.ts PAGES) at a desk's width and a phone's: axe-core finds no serious or critical
// violation of WCAG 2.1 A/AA, nothing scrolls sideways at 390 px, the skip link is the first stop of the keyboard, and
// a screenshot of each is kept under test-results/screenshots/.
let ws: Workspace;
// One context per width and per visitor or member, shared by the pages, which only read: opening and closing one per
// page cost ~0.6 s each, and a shared one keeps the app's scripts cached as a visitor's browser does.
const contexts = new Map<string, BrowserContext>();
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  ws = await seedWorkspace(browser);
});
test.afterAll(async () => {
  await Promise.all([...contexts.values()].map((context) => context.close()));
  contexts.clear();
  await ws?.receiver.close();
});

for (const viewport of [DESK, PHONE]) {
  test.describe(`at ${viewport.width} px`, () => {
    for (const p of PAGES) {
      test(`${p.name}: axe, no sideways scrolling, skip link`, async ({ browser }) => {
        test.slow(p.slow === true, "axe over a page this long takes most of a test's time");
        const key = `${viewport.width}-${p.signedIn !== false}`;
        let context = contexts.get(key);
        if (!context) {
          const opened = await openAs(browser, p.signedIn === false ? null : ws, viewport);
          await opened.page.close();
          context = opened.context;
          contexts.set(key, context);
        }
        const page = await context.newPage();
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
          await page.close();
        }
      });
    }
  });
}
