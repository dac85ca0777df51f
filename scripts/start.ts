// The preparation `npm start` runs before the server: make DATA_DIR private, open and migrate the database, build when
// there is no (current) build, then exit. The start script then execs the built server in the shell's place
// (package.json), so no wrapper stays resident beside it and signals reach it directly.
import { makePrivate, PRIVATE_UMASK } from "@/lib/config/data-dir";
import { dataDir } from "@/lib/config/env";
import { closeDb, getDbHandle } from "@/lib/db/client";
import { EmbeddedDatabaseBusyError } from "@/lib/db/embedded-lock";
import { buildIfStale } from "./build";

async function main() {
  process.umask(PRIVATE_UMASK);
  makePrivate(dataDir());
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
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error("[fenceline] could not start:", err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
