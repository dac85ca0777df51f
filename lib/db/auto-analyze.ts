import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { executeRows } from "./rows";

// PGlite runs no autovacuum, so nothing there ever ANALYZEs a table: the planner goes on estimating from the table's
// size alone, and, worse, a statement prepared on a connection keeps the plan Postgres chose for it while the table
// was small (a generic plan, after five executions) until something invalidates it, which an ANALYZE of the table
// does. A plan that was cheapest for an empty table (a hash of a trackable's rows, say) can cost a full read of a
// trackable's history once it holds a million points. This is the embedded database's autoanalyze: tables whose size
// on disk grew by a fifth since the planner last recorded it (ANALYZE and VACUUM record it) are analyzed, which
// refreshes their statistics and replans the statements that use them. On Postgres, autovacuum does this already.

/** A table is analyzed when it has more than this many pages (8 KB each) beyond 1.2 × what the planner last recorded. */
const MIN_GROWTH_PAGES = 8;

const STALE_TABLES = sql`
  select c.relname as name
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = current_schema() and c.relkind = 'r'
    and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages, 0) * 1.2 + ${MIN_GROWTH_PAGES}
  order by c.relname`;

/** ANALYZEs the tables of the schema that grew by a fifth (and 64 KB) since the planner last recorded their size; their names. */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const names = (await executeRows<{ name: string }>(db, STALE_TABLES)).map((r) => r.name);
  for (const name of names) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return names;
}

/**
 * Runs analyzeGrownTables every `everyMs` (one run at a time) until the returned function is called. The timer does not
 * keep the process alive. An ANALYZE samples at most 30,000 rows: ~85 ms for a table of a million rows on PGlite,
 * during which the embedded database answers nothing else, and with the 20 % rule a growing table is analyzed ever
 * more rarely (a million-row table again after 200,000 more).
 */
export function startAutoAnalyze(db: Db, opts: { everyMs?: number; log?: Pick<Console, "warn"> } = {}): () => void {
  const log = opts.log ?? console;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    analyzeGrownTables(db)
      .catch((err: unknown) => log.warn("[db] could not analyze the grown tables:", err))
      .finally(() => (running = false));
  }, opts.everyMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
