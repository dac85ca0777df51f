// npm start: migrate the database, build when there is no (current) build, then serve on PORT (default 3000) with
// Fenceline's own server (scripts/serve.ts → lib/server/app-server.ts) in a process of its own.
import { spawn } from "node:child_process";
import { dataDir, env } from "@/lib/config/env";
import { closeDb, getDbHandle } from "@/lib/db/client";
import { EmbeddedDatabaseBusyError } from "@/lib/db/embedded-lock";
import { buildIfStale, serverArgs } from "./build";

async function main() {
  const config = env();
  try {
    const handle = await getDbHandle("cli");
    console.log(`[fenceline] database ready (${handle.kind === "pglite" ? `embedded, ${dataDir()}/db` : "Postgres"})`);
    await closeDb();
  } catch (err) {
    if (err instanceof EmbeddedDatabaseBusyError) {
      console.error(`[fenceline] ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  buildIfStale();
  const child = spawn(process.execPath, serverArgs(), {
    stdio: "inherit",
    env: { ...process.env, PORT: String(config.PORT), NEXT_TELEMETRY_DISABLED: "1" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((err: unknown) => {
  console.error("[fenceline] could not start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
