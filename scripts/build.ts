import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

const root = process.cwd();
const SOURCES = ["app", "lib", "components", "inngest", "public", "scripts", "instrumentation.ts", "next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];

/**
 * The app server (scripts/serve.ts), the embedded database's process (lib/db/embedded-server.ts) and the threads that
 * decode large bodies (lib/http/body-worker.ts, see lib/http/body-pool.ts), bundled to plain JavaScript beside the
 * Next.js build: they run with no TypeScript loader. Under tsx the server held ~75 MB more (its loader thread and
 * source maps: 280 against 204 MB resident at rest, measured side by side).
 */
export const serverBundleDir = path.join(root, ".next", "fenceline");

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

/**
 * What is missing or older than a source file in the app at `dir`: the Next.js build, and the server's bundle apart
 * (`npm run build` makes only the former, so after an upgrade the bundle can be the older one).
 */
export function staleParts(dir = root): { next: boolean; bundle: boolean } {
  const newestSource = Math.max(...SOURCES.map((s) => newestMtime(path.join(dir, s))));
  const stale = (built: string) => !fs.existsSync(built) || newestSource > fs.statSync(built).mtimeMs;
  return { next: stale(path.join(dir, ".next", "BUILD_ID")), bundle: stale(path.join(dir, ".next", "fenceline", "serve.mjs")) };
}

export const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

/**
 * The node arguments that run the app server on the built app (scripts/serve.ts from its bundle). V8 starts a major
 * collection at 1.5 × what was alive after its last one (not up to 4 ×, which let a minute of load leave ~110 MB of
 * dead objects behind), and --expose-gc lets the server collect a burst's garbage once it goes quiet
 * (lib/server/idle-gc.ts).
 */
export const SERVER_NODE_FLAGS = ["--heap-growing-percent=50", "--expose-gc"];
export const serverArgs = (nodeArgs: string[] = []): string[] => [...SERVER_NODE_FLAGS, ...nodeArgs, path.join(serverBundleDir, "serve.mjs")];

/** Bundles the app server, the embedded database's process and the body worker (see serverBundleDir); the packages stay imports. */
export function bundleServer(): void {
  buildSync({
    absWorkingDir: root,
    entryPoints: { serve: "scripts/serve.ts", "embedded-server": "lib/db/embedded-server.ts", "body-worker": "lib/http/body-worker.ts" },
    outdir: serverBundleDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
}

/** Runs `next build` when it is missing or older than the sources, and bundles the server when either is. */
export function buildIfStale(log: (line: string) => void = console.log): void {
  const stale = staleParts();
  if (stale.next) {
    log("[fenceline] building the app (next build)…");
    const result = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  }
  if (stale.next || stale.bundle) bundleServer();
}
