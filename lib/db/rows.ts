import type { SQL } from "drizzle-orm";
import type { Executor } from "./client";

/**
 * Runs a raw query and returns its rows, whichever driver is behind `db`: postgres.js answers with an array of rows,
 * PGlite with `{ rows }`. Values are the drivers' own parsing, with no drizzle column mapping: double precision and
 * int4 come back as numbers, but bigint and numeric as strings (postgres.js) — cast in SQL and type T honestly.
 */
export async function executeRows<T extends object>(db: Executor, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  if (typeof result === "object" && result !== null && "rows" in result && Array.isArray(result.rows)) return result.rows as T[];
  throw new Error("executeRows: the driver returned neither an array of rows nor { rows }");
}
