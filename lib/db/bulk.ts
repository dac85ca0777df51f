import { getTableColumns, getTableName } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "./client";
import { queryRows } from "./rows";

// Multi-row writes whose SQL text does not depend on the number of rows: each column's values go in as ONE array
// parameter and the statement unnests them. The text is the same for 1 row or 10,000, so it is prepared once per
// connection (lib/db/client.ts) and no query is built per row; a multi-row VALUES list built by drizzle costs a
// parameter per value to build, and Postgres a parse of the whole list for every distinct row count. There is no
// limit of 65,535 bind parameters either.

type Row = Record<string, unknown>;

// A JSON column's values travel as ONE JSON array instead (each value's text as its element, null for NULL) and are
// taken apart in SQL: in a text[] literal the driver escapes a JSON value quote by quote (a cost a round's events
// showed in profiles) and Postgres unescapes it again. json_array_elements returns each element's own text, so a json
// column keeps its bytes and key order.
const isJson = (column: PgColumn) => column.getSQLType() === "json" || column.getSQLType() === "jsonb";

/** The array parameter $n of a column, cast to the column's type (for unnest). */
function arraySql(column: PgColumn, n: number): string {
  const type = column.getSQLType();
  if (!isJson(column)) return `$${n}::text[]::${type}[]`;
  return `array(select case when ${type}_typeof(e) = 'null' then null else e end from ${type}_array_elements($${n}::text::${type}) with ordinality as x(e, i) order by i)`;
}

/**
 * A column's values as the parameter arraySql reads: each through the column's own mapping to the driver (dates to
 * ISO 8601, JSON to text) and sent as text; null and undefined are NULL.
 */
function columnParam(column: PgColumn, values: readonly unknown[]): (string | null)[] | string {
  const texts = values.map((v) => (v === null || v === undefined ? null : String(column.mapToDriverValue(v))));
  return isJson(column) ? `[${texts.map((v) => v ?? "null").join(",")}]` : texts;
}

/**
 * INSERT INTO table (…) SELECT * FROM unnest($1::text[]::<type>[], …) [onConflict]: the rows in one statement. The
 * columns written are those any row sets and those with a $defaultFn; a row that leaves one unset gets the $defaultFn, or NULL
 * when the column has no default (what a drizzle insert writes). A column with a database default (created_at) is
 * written only when the rows set it, and then every row must. Values go through the column's own mapping to the
 * driver (dates to ISO 8601, JSON to text) and travel as text, cast to the column's type in SQL (a JSON column's as one
 * JSON array: arraySql).
 */
export async function insertUnnested<T extends PgTable>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<T["$inferInsert"]>,
  opts: { onConflict?: string } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const all = Object.entries(getTableColumns(table)) as Array<[string, PgColumn]>;
  const set = new Set<string>();
  for (const row of rows as ReadonlyArray<Row>) for (const key in row) if (row[key] !== undefined) set.add(key);
  const columns = all.filter(([key, column]) => set.has(key) || column.defaultFn);
  const params = columns.map(([key, column]) =>
    columnParam(
      column,
      (rows as ReadonlyArray<Row>).map((row) => {
        const value = row[key];
        if (value !== undefined) return value;
        if (column.defaultFn) return column.defaultFn();
        if (column.hasDefault) throw new Error(`insertUnnested: ${getTableName(table)}.${column.name} is set in some rows only, and has a database default`);
        return null;
      }),
    ),
  );
  const names = columns.map(([, c]) => `"${c.name}"`).join(", ");
  const arrays = columns.map(([, c], i) => arraySql(c, i + 1)).join(", ");
  const text = `insert into "${getTableName(table)}" (${names}) select * from unnest(${arrays})${opts.onConflict ? ` ${opts.onConflict}` : ""}`;
  await queryRows(db, text, params);
}

/**
 * The parts of a fixed multi-row insert into `table` for use inside a larger statement (a CTE): the columns of `keys`
 * (drizzle's property names), the `select * from unnest(…)` yielding the rows with the first column's array as
 * parameter $from, and the parameters of some rows, each column one parameter mapped as insertUnnested maps it. The
 * statement text does not depend on the rows; insertUnnested is the whole-statement form.
 */
export function unnestedInsert<T extends PgTable>(table: T, keys: ReadonlyArray<keyof T["$inferInsert"] & string>, from: number) {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const columns = keys.map((key) => {
    const column = all[key];
    if (!column) throw new Error(`unnestedInsert: ${getTableName(table)} has no column ${key}`);
    return [key, column] as const;
  });
  return {
    names: columns.map(([, c]) => `"${c.name}"`),
    select: `select * from unnest(${columns.map(([, c], i) => arraySql(c, from + i)).join(", ")})`,
    params: (rows: ReadonlyArray<T["$inferInsert"]>) => columns.map(([key, column]) => columnParam(column, (rows as ReadonlyArray<Row>).map((row) => row[key]))),
  };
}
