import { log } from "@/lib/log/logger";

// postgres.js reads the array types on each new connection in a promise it never awaits (porsager/postgres#1192,
// #1205, #1223): when that read fails (the connection killed while it starts, a statement timeout, the database
// going away or restarting), the rejection is unhandled, and Node ends the process on an unhandled rejection, with
// every request in flight. The query the connection was opened for still fails or succeeds on its own, where it is
// handled. The guard lets exactly that rejection go with a warning; any other unhandled rejection still ends the
// process, as Node's default does.

/** The driver's own array-types read, as its errors carry it (their `query`). */
const ARRAY_TYPES_READ = /from pg_catalog\.pg_type a\s+left join pg_catalog\.pg_type b on b\.oid = a\.typelem/;

/** Whether an unhandled rejection is the driver's failed array-types read. */
export function isArrayTypesReadFailure(reason: unknown): boolean {
  const query = reason !== null && typeof reason === "object" ? (reason as { query?: unknown }).query : undefined;
  return typeof query === "string" && ARRAY_TYPES_READ.test(query);
}

const installed = Symbol.for("fenceline.driverGuard");

/** Installs the guard once per process (the app server's bundle and the routes' may each call it). */
export function guardDriverRejections(): void {
  const holder = process as unknown as { [installed]?: true };
  if (holder[installed]) return;
  holder[installed] = true;
  process.on("unhandledRejection", (reason) => {
    if (!isArrayTypesReadFailure(reason)) throw reason;
    const code = (reason as { code?: unknown }).code;
    log.warn(`[db] a new database connection failed while reading the array types (${String(code ?? (reason as Error).message)}); its query fails or is retried on its own`);
  });
}
