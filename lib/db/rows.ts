import type { SQL } from "drizzle-orm";
import type { Executor, SqlClient } from "./client";

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

/**
 * Runs a statement written as SQL text with $1…$n parameters on the executor's own postgres.js connection (a
 * transaction's, inside one), without the query builder: for the hottest statements (a post's insert), whose text
 * is built once and whose parameters are bound as they are. Prepared, like every statement with few parameters
 * (lib/db/client.ts). Rows as the driver parses them (see executeRows).
 *
 * The statement is handed to the connection when this is called, not when it is awaited: statements issued one after
 * another before any is awaited go out together (pipelined, one round trip) and run in the order they were issued,
 * each in a snapshot of its own taken when it starts (READ COMMITTED). A transaction's later statements fail once one
 * has failed, so awaiting them together (Promise.all) rejects with the first error.
 */
export function queryRows<T extends object>(db: Executor, text: string, params: unknown[]): Promise<T[]> {
  // A database handle carries its client as $client; a transaction only in its session (drizzle's own field).
  const handle = db as unknown as { $client?: SqlClient; session?: { client?: SqlClient } };
  const client = handle.$client ?? handle.session?.client;
  if (!client) return Promise.reject(new Error("queryRows: no postgres.js client behind this executor"));
  return client.unsafe(text, params as never[]).execute() as unknown as Promise<T[]>;
}

/**
 * A timestamp column as epoch milliseconds (float8, exact at the millisecond precision timestamps are stored with),
 * for fixed SQL whose rows are read without drizzle's mapping: `new Date(row.xMs)` on the way back.
 * date_part computes in float8 (EXTRACT computes in numeric since Postgres 14, which bench/epoch-ms.ts weighs). Its
 * seconds are the stored microseconds divided by a million, correctly rounded, so times a thousand they lie within a
 * thousandth of the whole milliseconds, which round() gives back exactly.
 */
export const epochMs = (column: string): string => `round(date_part('epoch', ${column}) * 1000)`;
