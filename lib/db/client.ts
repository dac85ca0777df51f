import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { dataDir, env } from "@/lib/config/env";
import { acquireEmbeddedLock, type LockRole } from "./embedded-lock";
import { migrateDatabase } from "./migrate";
import * as schema from "./schema";

// The one database handle type the product code sees, whichever driver is behind it.
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

const globalForDb = globalThis as unknown as { __fencelineDb?: Promise<DbHandle> };

/** Opens (once per process) and migrates the database: Postgres when DATABASE_URL is set, PGlite otherwise. */
export function getDbHandle(role: LockRole = "server"): Promise<DbHandle> {
  globalForDb.__fencelineDb ??= openDatabase(role).catch((err: unknown) => {
    globalForDb.__fencelineDb = undefined;
    throw err;
  });
  return globalForDb.__fencelineDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Closes the process's database (scripts and tests); the next getDb() opens it again. */
export async function closeDb(): Promise<void> {
  const pending = globalForDb.__fencelineDb;
  globalForDb.__fencelineDb = undefined;
  if (pending) await (await pending).close();
}

async function openDatabase(role: LockRole): Promise<DbHandle> {
  const url = env().DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    await migrateDatabase({ kind: "postgres", url });
    const client = postgres(url, { max: 10, onnotice: () => {} });
    const db = drizzle({ client, schema }) as unknown as Db;
    return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
  }

  // One process at a time may open an embedded data directory; a second would corrupt it.
  const release = acquireEmbeddedLock(dataDir(), role);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { cube } = await import("@electric-sql/pglite/contrib/cube");
    const { earthdistance } = await import("@electric-sql/pglite/contrib/earthdistance");
    const { drizzle } = await import("drizzle-orm/pglite");
    const client = await PGlite.create(path.join(dataDir(), "db"), { extensions: { cube, earthdistance } });
    const db = drizzle({ client, schema }) as unknown as Db;
    await migrateDatabase({ kind: "pglite", client });
    return {
      db,
      kind: "pglite",
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
