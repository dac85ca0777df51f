import fs from "node:fs";
import path from "node:path";

export type LockRole = "server" | "cli";

export interface LockInfo {
  /** The process that has the files open (the embedded database's own process, lib/db/embedded-server.ts). */
  pid: number;
  /** When that process started (Linux: /proc/<pid>/stat's start time), so a reused pid is not taken for it. */
  pidStart?: string;
  /** The app process it serves (a server or a script), when that is another process. */
  ownerPid?: number;
  /** When the app process started (as pidStart). */
  ownerStart?: string;
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

/**
 * What /proc says of a process: gone, a zombie (dead, not yet reaped by its parent), or running with its start time
 * (in clock ticks since boot). null where there is no /proc (not Linux).
 */
export function procState(pid: number): { state: "gone" } | { state: "zombie" } | { state: "running"; start: string } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH") return fs.existsSync("/proc/self/stat") ? { state: "gone" } : null;
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses; the start time is the 22nd field.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return { state: "zombie" };
  return { state: "running", start: fields[19]! };
}

/** The start time of a process (see procState), undefined where it cannot be known. */
export function processStart(pid: number): string | undefined {
  const s = procState(pid);
  return s?.state === "running" ? s.start : undefined;
}

/**
 * The process with this pid is alive: not gone, not a zombie, and (when `start` is given and can be checked) the same
 * process that recorded it, not a later one that was given the same pid. Another user's process counts too.
 */
export function alive(pid: number, start?: string): boolean {
  const s = procState(pid);
  if (s) return s.state === "running" && (start === undefined || s.start === start);
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
    return info.pid !== process.pid && alive(info.pid, info.pidStart) ? info : null;
  } catch {
    return null;
  }
}

/** The lock's app process is gone (exited, killed, a zombie, or its pid now another process's). */
export function ownerGone(holder: LockInfo): boolean {
  return holder.ownerPid !== undefined && holder.ownerPid !== holder.pid && !alive(holder.ownerPid, holder.ownerStart);
}

/** Takes the data directory's lock file (exclusive create) or throws EmbeddedDatabaseBusyError. */
export function acquireEmbeddedLock(dir: string, role: LockRole, opts: { ownerPid?: number } = {}): () => void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = lockPath(dir);
  const pidStart = processStart(process.pid);
  const ownerStart = opts.ownerPid !== undefined ? processStart(opts.ownerPid) : undefined;
  const info: LockInfo = {
    pid: process.pid,
    ...(pidStart !== undefined ? { pidStart } : {}),
    ...(opts.ownerPid !== undefined ? { ownerPid: opts.ownerPid } : {}),
    ...(ownerStart !== undefined ? { ownerStart } : {}),
    role,
    port: role === "server" ? Number(process.env.PORT || 3000) : null,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx", mode: 0o600 });
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
      // A lock whose process is dead (kill -9), a zombie not yet reaped, or whose pid is now another process's.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
