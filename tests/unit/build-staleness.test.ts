import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { staleParts } from "@/scripts/build";

// `npm run build` (next build alone) after an upgrade leaves the server's bundle older than the sources: the start must
// bundle it again rather than serve the old server beside the new build.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-build-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const at = (file: string, seconds: number) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, "");
  fs.utimesSync(file, seconds, seconds);
};

it("tells the Next.js build and the server's bundle apart", () => {
  const source = path.join(dir, "lib", "thing.ts");
  const buildId = path.join(dir, ".next", "BUILD_ID");
  const bundle = path.join(dir, ".next", "fenceline", "serve.mjs");
  // A source directory counts by its own time too: keep it old.
  const settle = () => fs.utimesSync(path.join(dir, "lib"), 1000, 1000);

  at(source, 2000);
  settle();
  expect(staleParts(dir)).toEqual({ next: true, bundle: true });

  at(buildId, 3000);
  at(bundle, 3000);
  settle();
  expect(staleParts(dir)).toEqual({ next: false, bundle: false });

  // An upgrade changed a source, then `npm run build` made a new Next.js build only.
  at(source, 4000);
  at(buildId, 5000);
  settle();
  expect(staleParts(dir)).toEqual({ next: false, bundle: true });
});
