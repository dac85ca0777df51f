import fs from "node:fs";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { imports } from "@/lib/db/schema";
import { log } from "@/lib/log/logger";
import { ABANDONED_MS, spoolDir } from "./spool";

/**
 * A whole spool file is this old at least before it may be swept: its import row is committed a transaction after the
 * file is renamed into place, so a younger file may belong to an upload still being answered.
 */
export const SPOOL_GRACE_MS = 10 * 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Removes spool files no running import will read: an upload spooled by a server that crashed before its import row
 * committed (or after the import ended, before the file was removed), and partial uploads a stopped server left. A
 * file younger than its grace period stays. Returns the names removed.
 */
export async function sweepSpoolFiles(db: Executor, now = Date.now()): Promise<string[]> {
  const dir = spoolDir();
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const old = async (name: string, graceMs: number) => {
    const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    return stat !== null && stat.isFile() && now - stat.mtimeMs > graceMs;
  };
  const candidates: string[] = [];
  const uploads = new Map<string, string>();
  for (const name of names) {
    if (name.endsWith(".part")) {
      if (await old(name, ABANDONED_MS)) candidates.push(name);
    } else if (name.endsWith(".upload")) {
      const id = name.slice(0, -".upload".length);
      // A name that is no import's id was not written by an import: it is no spool file either.
      if (UUID.test(id) && (await old(name, SPOOL_GRACE_MS))) uploads.set(id, name);
    }
  }
  if (uploads.size > 0) {
    const running = await db
      .select({ id: imports.id })
      .from(imports)
      .where(and(inArray(imports.id, [...uploads.keys()]), eq(imports.status, "running")));
    for (const { id } of running) uploads.delete(id);
    candidates.push(...uploads.values());
  }
  for (const name of candidates) await fs.promises.rm(path.join(dir, name), { force: true });
  if (candidates.length > 0) log.info(`[imports] removed ${candidates.length} spool file(s) no running import reads: ${candidates.join(", ")}`);
  return candidates;
}

/**
 * Sweeps at start and then once per grace period, so an orphan left by a crash just before a restart goes too.
 * The timer does not keep the process alive.
 */
export function startSpoolSweeper(db: Executor): void {
  const sweep = () => sweepSpoolFiles(db).catch((err: unknown) => log.warn("[imports] spool sweep failed:", err instanceof Error ? err.message : err));
  void sweep();
  setInterval(sweep, SPOOL_GRACE_MS).unref();
}
