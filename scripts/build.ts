import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
const SOURCES = ["app", "lib", "components", "inngest", "public", "instrumentation.ts", "next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];

function newestMtime(p: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when there is no production build, or a source file changed after it was made. */
export function buildIsStale(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const builtAt = fs.statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

export const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

/** The node arguments that run the app server on the built app (scripts/serve.ts, TypeScript through tsx). */
export const serverArgs = (nodeArgs: string[] = []): string[] => [...nodeArgs, "--import", "tsx", path.join(root, "scripts", "serve.ts")];

/** Runs `next build` when the build is missing or older than the sources. */
export function buildIfStale(log: (line: string) => void = console.log): void {
  if (!buildIsStale()) return;
  log("[fenceline] building the app (next build)…");
  const result = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
}
