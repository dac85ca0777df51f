// Serves the built app (no migration, no build): the process `npm start` ends up running (it execs it after
// scripts/start.ts has prepared), the one a supervisor runs, and the one the test harness spawns. Next.js reads
// NODE_ENV when it loads, so it is set before anything imports it.
import path from "node:path";
import { fileURLToPath } from "node:url";

const vars = process.env as Record<string, string | undefined>;
vars.NODE_ENV ??= "production";
vars.NEXT_TELEMETRY_DISABLED ??= "1";
// Run from its bundle (.next/fenceline/serve.mjs, see scripts/build.ts), the server starts the embedded database's
// process from the same bundle (lib/db/client.ts); under tsx, from its TypeScript. Internal, not a setting.
const self = fileURLToPath(import.meta.url);
if (self.endsWith(".mjs")) vars.FENCELINE_SERVER_BUNDLE = path.dirname(self);

try {
  // DATA_DIR (the embedded database, the secrets) is the owner's only, and so is what this process makes later.
  const { makePrivate, PRIVATE_UMASK } = await import("@/lib/config/data-dir");
  const { dataDir } = await import("@/lib/config/env");
  process.umask(PRIVATE_UMASK);
  makePrivate(dataDir());
  const { serve } = await import("@/lib/server/serve");
  await serve();
} catch (err) {
  console.error("[fenceline] could not start:", err instanceof Error ? err.message : err);
  process.exit(1);
}
