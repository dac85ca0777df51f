import { expect, type Page } from "@playwright/test";

/**
 * Collects console errors and uncaught page errors, except the tile requests that fail by design (the suite points
 * tiles at the closed port 9) and Chromium's own /favicon.ico probe. Call `expectNone()` at the end of the test.
 */
export function watchConsole(page: Page) {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location().url ?? "";
    if (where.startsWith("http://127.0.0.1:9/") || /127\.0\.0\.1:9\//.test(msg.text())) return;
    if (where.endsWith("/favicon.ico")) return;
    errors.push(`${msg.text()} (${where})`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return { errors, expectNone: () => expect(errors, errors.join("\n")).toEqual([]) };
}
