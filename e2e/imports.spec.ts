import path from "node:path";
import { apiClient, createApiKey } from "./support/api";
import { seriousViolations } from "./support/axe";
import { watchConsole } from "./support/console";
import { expect, test } from "./support/fresh-account";

const FIXTURES = path.resolve("tests/fixtures/imports");

test.use({ viewport: { width: 390, height: 844 } });

test("import a GPX file from the trackable page on a phone: the counts, the bad point by its line, the track", async ({ page, request }) => {
  const errors = watchConsole(page);
  const api = apiClient(request, await createApiKey(page, "e2e imports"));
  const created = await api.post("/trackables", { name: "Imported van", type: "vehicle" });
  expect(created.status).toBe(201);
  const id = created.body.id as string;

  await page.goto(`/trackables/${id}`);
  const form = page.getByRole("form", { name: "Import a history file" });
  await form.getByLabel("File").setInputFiles(path.join(FIXTURES, "gpslogger-136.gpx"));
  await form.getByRole("button", { name: "Import" }).click();
  const result = page.getByTestId("import-result");
  await expect(result).toContainText("Imported: 2 of 3 positions stored, 1 skipped");
  await expect(result.getByRole("listitem")).toHaveText(["Line 17: lon: required; time: required"]);

  const history = await api.get(`/trackables/${id}/locations?order=asc`);
  expect(history.body.data.map((p: { timestamp: string; source: string }) => [p.timestamp, p.source])).toEqual([
    ["2026-08-09T23:00:41.189Z", "import"],
    ["2026-08-09T23:01:46.781Z", "import"],
  ]);

  const bad = await seriousViolations(page);
  expect(bad, bad.join("\n")).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  errors.expectNone();
});
