import fs from "node:fs";
import path from "node:path";

export type LockRole = "server" | "cli";

export interface LockInfo {
  /** The process that has the files open (the embedded database's own process, lib/db/embedded-server.ts). */
  pid: number;
  /** The app process it serves (a server or a script), when that is another process. */
  ownerPid?: number;
  role: LockRole;
  port: number | null;
  startedAt: string;
}

export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly holder: LockInfo,
    dir: string,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${holder.ownerPid ?? holder.pid} (${holder.role}). ` +
        "Only one process may open it at a time: stop that process, or set DATABASE_URL to use Postgres.",
    );
  }
}

const lockPath = (dir: string) => path.join(dir, "db.lock");

/** A process with this pid exists (one of another user's counts too). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process holding the embedded database, if any (a lock left by a killed process is ignored). */
export function readEmbeddedLock(dir: string): LockInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath(dir), "utf8")) as LockInfo;
    return info.pid !== process.pid && alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/** Takes the data directory's lock file (exclusive create) or throws EmbeddedDatabaseBusyError. */
export function acquireEmbeddedLock(dir: string, role: LockRole, opts: { ownerPid?: number } = {}): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = lockPath(dir);
  const info: LockInfo = {
    pid: process.pid,
    ...(opts.ownerPid !== undefined ? { ownerPid: opts.ownerPid } : {}),
    role,
    port: role === "server" ? Number(process.env.PORT || 3000) : null,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx" });
      const release = () => {
        process.off("exit", release);
        try {
          const current = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
          if (current.pid === process.pid) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = readEmbeddedLock(dir);
      if (holder) throw new EmbeddedDatabaseBusyError(holder, dir);
      // Stale lock from a process that died (kill -9): remove it and try again.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
