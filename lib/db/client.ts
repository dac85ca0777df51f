import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { dataDir, env } from "@/lib/config/env";
import { databaseAnswered } from "./answers";
import { EmbeddedDatabaseBusyError, type LockInfo, type LockRole } from "./embedded-lock";
import { migrateDatabase } from "./migrate";
import * as schema from "./schema";
import { log } from "@/lib/log/logger";

// The one database handle type the product code sees. One driver (postgres.js) for both databases: Postgres at
// DATABASE_URL, or the embedded PGlite, which runs in a process of its own (lib/db/embedded-server.ts) and speaks the
// Postgres wire protocol on a Unix socket.
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface DbHandle {
  db: Db;
  /** "pglite": the embedded database, which no other app process can share. */
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
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const url = env().DATABASE_URL;
  if (url) {
    await migrateDatabase({ kind: "postgres", url });
    const client = postgres(url, { max: 10, onnotice: () => {}, prepare: env().DATABASE_PREPARED_STATEMENTS });
    const db = drizzle({ client: preparing(client), schema }) as unknown as Db;
    return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
  }

  const embedded = await startEmbeddedDatabase(dataDir(), role);
  // One connection, as PGlite runs one query at a time: a transaction holds it, and other queries wait in the
  // driver's queue (as they waited for PGlite in this process before). Nothing may query outside a transaction
  // while inside one (it never could on PGlite either).
  const client = postgres({ path: embedded.socket, user: "postgres", database: "postgres", max: 1, onnotice: () => {} });
  const close = async () => {
    await client.end({ timeout: 5 }).catch(() => {});
    await embedded.stop();
  };
  try {
    await migrateDatabase({ kind: "embedded", client });
  } catch (err) {
    await close();
    throw err;
  }
  return { db: drizzle({ client: preparing(client), schema }) as unknown as Db, kind: "pglite", close };
}

/**
 * Statements with up to this many parameters are prepared: parsed and planned once per connection, then run with
 * one message and one round trip. drizzle prepares only what is given a name, so postgres.js sent every other
 * statement unnamed, and for one with parameters it first asks the server to parse and describe it, waits for the
 * answer, then sends it again to run: two round trips and two parses per statement. Larger statements (multi-row
 * inserts, long IN lists) stay unnamed, so the number of prepared statements a connection keeps stays bounded by the
 * app's statement shapes.
 */
export const PREPARE_MAX_PARAMETERS = 100;

type UnsafeOptions = { prepare?: boolean } & Record<string, unknown>;
/** The postgres.js client behind drizzle. */
export type SqlClient = ReturnType<typeof import("postgres")>;

/**
 * The postgres.js client as drizzle sees it, preparing the statements drizzle leaves unnamed that have between 1 and
 * PREPARE_MAX_PARAMETERS parameters (outside and inside transactions), and noting each statement's answer for the
 * health check (lib/db/answers.ts). Everything else is the client itself.
 */
export function preparing<C extends SqlClient>(client: C): C {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "unsafe") {
        return (query: string, args: unknown[] = [], options: UnsafeOptions = {}) => {
          const prepare = options.prepare || (args.length > 0 && args.length <= PREPARE_MAX_PARAMETERS);
          return noteAnswer(target.unsafe(query, args as never[], { ...options, prepare }));
        };
      }
      if (prop === "begin") {
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: SqlClient) => unknown;
          return (target.begin as (...a: unknown[]) => Promise<unknown>)(...args, (tx: SqlClient) => fn(preparing(tx)));
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

/**
 * The statement, which reports its result to databaseAnswered when the connection resolves it: postgres.js resolves
 * a query through its own `resolve` (set per query, not in its types), called once the database's reply is complete.
 * Wrapping that, not `then`, leaves the query lazy (`then` would start it before drizzle asked for `.values()`).
 */
function noteAnswer<Q extends object>(query: Q): Q {
  const q = query as Q & { resolve?: (value: unknown) => unknown };
  const resolve = q.resolve;
  if (typeof resolve !== "function") throw new Error("postgres.js queries have no resolve(): lib/db/client.ts needs another way to see answers");
  q.resolve = (value) => {
    databaseAnswered();
    return resolve(value);
  };
  return query;
}

/** Where the embedded database listens: a Unix socket in the data directory (or, for a long path, a private temp dir). */
function socketPathFor(dir: string): string {
  const inDataDir = path.resolve(dir, "db.sock");
  // Unix socket paths are limited to ~107 bytes.
  if (Buffer.byteLength(inDataDir) < 100) return inDataDir;
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-db-")), "db.sock");
}

/**
 * Starts lib/db/embedded-server.ts (PGlite over the wire protocol) for `dir` and resolves with its socket once it
 * serves; rejects with EmbeddedDatabaseBusyError when another live process holds the data directory. Exported for
 * bench/baseline-server.ts, whose bare server runs on an embedded database started the same way as the app's.
 */
export async function startEmbeddedDatabase(dir: string, role: LockRole): Promise<{ socket: string; stop(): Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socket = socketPathFor(dir);
  // From the server's bundle when the app server runs from it (scripts/serve.ts), else TypeScript through tsx (the CLI
  // scripts, the tests); none of the app's own node flags (a CPU profile, an inspector). spawn, not fork: the bundler
  // leaves it alone (it would try to bundle a forked module's path).
  const bundle = process.env.FENCELINE_SERVER_BUNDLE;
  // Its memory (bench/README.md: 333–352 MB → 229–238 MB resident on a new data directory, CPU per query
  // unchanged or lower): --no-liftoff compiles PGlite's WebAssembly with the optimizing compiler alone, not first with
  // the baseline one whose code and compile memory stayed resident beside the optimized code; two malloc arenas, not
  // one per thread that compiled (each kept what its compile freed). Its JavaScript allocates little (PGlite's memory
  // is WebAssembly's), so a 2 MB young generation (not up to 16 MB per semi-space) is enough: 200 → 175 MB resident
  // after bench/webhook-latency.ts's minute of load, CPU per event unchanged (bench/README.md).
  const entry = ["--no-liftoff", "--max-semi-space-size=2", ...(bundle ? [path.join(bundle, "embedded-server.mjs")] : ["--import", "tsx", path.join(process.cwd(), "lib", "db", "embedded-server.ts")])];
  const child: ChildProcess = spawn(process.execPath, entry, {
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      FENCELINE_EMBEDDED_DIR: path.resolve(dir),
      FENCELINE_EMBEDDED_ROLE: role,
      FENCELINE_EMBEDDED_SOCKET: socket,
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("The embedded database did not start within 120 s"));
    }, 120_000);
    const done = (err?: Error) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (err) reject(err);
      else resolve();
    };
    const onMessage = (m: { type: string; holder?: LockInfo; message?: string }) => {
      if (m.type === "ready") done();
      else if (m.type === "busy") done(new EmbeddedDatabaseBusyError(m.holder!, dir));
      else if (m.type === "error") done(new Error(`The embedded database could not start: ${m.message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      done(new Error(`The embedded database process exited while starting (${signal ?? `exit ${code}`})`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });

  // A database process that dies while the app runs leaves it without its database: a server stops (its supervisor
  // restarts it), a script's queries fail.
  child.once("exit", (code, signal) => {
    if (stopping) return;
    log.error(`[fenceline] the embedded database process stopped (${signal ?? `exit ${code}`})`);
    if (role === "server") process.exit(1);
  });
  // The app does not wait for it to exit (it closes itself when this process goes).
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();

  return {
    socket,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: "close" });
      const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
      if (!gone) child.kill("SIGKILL");
    },
  };
}
