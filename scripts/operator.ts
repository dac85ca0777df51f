import { adminToken } from "@/lib/config/secrets";
import { dataDir, env } from "@/lib/config/env";
import { closeDb, getDbHandle, type Db } from "@/lib/db/client";
import { EmbeddedDatabaseBusyError, readEmbeddedLock } from "@/lib/db/embedded-lock";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A call to the local operator endpoints (/api/internal) of the server that holds the embedded database. */
export async function callServer(port: number, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}/api/internal${path}`, {
    method,
    headers: { Authorization: `Bearer ${adminToken()}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((err: unknown) => fail(`The server that holds the embedded database (port ${port}) did not answer: ${String(err)}`));
  const parsed = (await res.json().catch(() => null)) as { error?: { message: string } } | null;
  if (!res.ok) fail(`The server refused: ${parsed?.error?.message ?? `HTTP ${res.status}`}`);
  return parsed;
}

/**
 * Runs an operator command. The embedded database may be opened by one process only: while a server holds it, the
 * command goes through that server (`viaServer`); otherwise it opens the database (migrating it) and runs `direct`.
 */
export async function runOperatorCommand<T>(
  direct: (db: Db) => Promise<T>,
  viaServer: (port: number) => Promise<T>,
): Promise<T> {
  if (!env().DATABASE_URL) {
    const holder = readEmbeddedLock(dataDir());
    if (holder?.role === "server" && holder.port) return viaServer(holder.port);
  }
  try {
    const { db } = await getDbHandle("cli");
    return await direct(db);
  } catch (err) {
    if (err instanceof EmbeddedDatabaseBusyError) fail(err.message);
    throw err;
  } finally {
    await closeDb();
  }
}
