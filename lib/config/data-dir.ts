import fs from "node:fs";
import path from "node:path";

/** The umask of every Fenceline process that writes to DATA_DIR: what it creates is the owner's only. */
export const PRIVATE_UMASK = 0o077;

/**
 * Makes `dir` (DATA_DIR: the embedded database, the session secret, the admin token) and everything in it the
 * owner's only: the directory and its subdirectories 0700, files 0600, whatever umask made them (an existing install's
 * files are tightened). Symbolic links are left alone and not followed.
 */
export function makePrivate(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
}

function tighten(p: string): void {
  let entries: string[] = [];
  try {
    const stat = fs.lstatSync(p);
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o7777) !== wanted) fs.chmodSync(p, wanted);
    if (stat.isDirectory()) entries = fs.readdirSync(p);
  } catch (err) {
    // Removed meanwhile (a database process that is still closing recycles its files).
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  for (const entry of entries) tighten(path.join(p, entry));
}
