import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, getDbHandle, type Db } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { deleteAccounts } from "@/lib/accounts/accounts";
import type { Ctx, Plan } from "@/lib/context";
import { scratchPostgres } from "./scratch-db";

/**
 * A real database for a lib test file, opened the way the app opens it: embedded PGlite in a temp DATA_DIR, or, with
 * DATABASE_URL, a scratch database of its own on that Postgres. `account()` makes a fresh tenant and its Ctx.
 */
export async function openUnitDb(label: string) {
  let dataDir: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const scratch = await scratchPostgres(process.env.DATABASE_URL, "fenceline_unit");
    process.env.DATABASE_URL = scratch.url;
    drop = scratch.drop;
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fenceline-${label}-`));
    process.env.DATA_DIR = dataDir;
  }
  const db: Db = (await getDbHandle("cli")).db;
  const created: string[] = [];
  return {
    db,
    async account(plan: Plan = "enterprise"): Promise<Ctx> {
      const [row] = await db
        .insert(accounts)
        .values({ slug: `${label}-${randomBytes(6).toString("hex")}`, name: label, plan })
        .returning({ id: accounts.id });
      created.push(row!.id);
      return { account: { id: row!.id, plan }, db };
    },
    async close() {
      await deleteAccounts(db, created);
      await closeDb();
      await drop?.();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
