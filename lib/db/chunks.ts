import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * Bind parameters one statement may carry: the wire protocol counts them in 16 bits, and postgres.js and PGlite both
 * fail a statement with more ("MAX_PARAMETERS_EXCEEDED" / "too many parameters").
 */
export const MAX_BIND_PARAMETERS = 65_535;

/** Rows per multi-row statement unless the caller asks for fewer: bounds the memory one statement (and its RETURNING) takes. */
export const DEFAULT_ROWS_PER_STATEMENT = 1000;

/**
 * How many rows of `table` one multi-row INSERT may carry: every column can be a bind parameter (drizzle sends a
 * parameter per given value and `default` for the others), so rows × columns stays under MAX_BIND_PARAMETERS.
 */
export function rowsPerInsert(table: PgTable, maxRows = DEFAULT_ROWS_PER_STATEMENT): number {
  const columns = Object.keys(getTableColumns(table)).length;
  return Math.max(1, Math.min(maxRows, Math.floor(MAX_BIND_PARAMETERS / columns)));
}

/**
 * The one way to write many rows: `write` is called on consecutive slices of `rows` (in order, one after the other,
 * in the caller's transaction if it uses one), each at most `size` rows; what the calls return is concatenated.
 * Use `rowsPerInsert(table)` as the size of an INSERT, so no statement ever exceeds the driver's parameter limit.
 */
export async function inChunks<R, T = never>(rows: readonly R[], size: number, write: (chunk: R[]) => Promise<T[] | void>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += size) {
    const result = await write(rows.slice(i, i + size));
    if (result) for (const r of result) out.push(r);
  }
  return out;
}
