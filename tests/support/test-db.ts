import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, getDbHandle, type Db } from "@/lib/db/client";
import { scratchPostgres } from "./scratch-db";

/**
 * A real database opened the way the app opens it, for lib tests: embedded PGlite in a temp DATA_DIR, or, with
 * DATABASE_URL, a scratch database of its own on that Postgres. `close()` closes it and removes what it created.
 */
export async function openTestDb(label: string): Promise<{ db: Db; close(): Promise<void> }> {
  let drop: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (process.env.DATABASE_URL) {
    const scratch = await scratchPostgres(process.env.DATABASE_URL, `fenceline_${label.replace(/\W/g, "_")}`);
    process.env.DATABASE_URL = scratch.url;
    drop = scratch.drop;
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fenceline-${label}-`));
    process.env.DATA_DIR = dataDir;
  }
  const handle = await getDbHandle("cli");
  return {
    db: handle.db,
    async close() {
      await closeDb();
      await drop?.();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
