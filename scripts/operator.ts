import { adminToken } from "@/lib/config/secrets";
import { dataDir, env } from "@/lib/config/env";
import { closeDb, getDbHandle, type Db } from "@/lib/db/client";
import { EmbeddedDatabaseBusyError, readEmbeddedLock } from "@/lib/db/embedded-lock";
import { adminRequest, adminSocketPath } from "@/lib/http/admin-socket";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * A call to the operator endpoint (/api/internal) of the server that holds the embedded database, over its admin
 * socket in the data directory (the TCP port does not serve it).
 */
export async function callServer(method: string, path: string, body?: unknown): Promise<unknown> {
  const socket = adminSocketPath(dataDir());
  const res = await adminRequest(socket, adminToken(), method, path, body).catch((err: unknown) =>
    fail(
      (err as NodeJS.ErrnoException).code === "ENOENT"
        ? `The server that holds the embedded database has no operator socket ${socket} (\`next dev\` opens none): stop it, or use \`npm start\``
        : `The server that holds the embedded database did not answer on its operator socket ${socket}: ${String(err)}`,
    ),
  );
  const parsed = res.body as { error?: { message: string } } | null;
  if (res.status < 200 || res.status > 299) fail(`The server refused: ${parsed?.error?.message ?? `HTTP ${res.status}`}`);
  return parsed;
}

/**
 * Runs an operator command. The embedded database may be opened by one process only: while a server holds it, the
 * command goes through that server (`viaServer`); otherwise it opens the database (migrating it) and runs `direct`.
 */
export async function runOperatorCommand<T>(
  direct: (db: Db) => Promise<T>,
  viaServer: () => Promise<T>,
): Promise<T> {
  if (!env().DATABASE_URL) {
    const holder = readEmbeddedLock(dataDir());
    if (holder?.role === "server" && holder.port) return viaServer();
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
